//! A seat's token: the file that lets one bot take one seat. It holds the seat's name, the
//! address to connect to, the seat's secret and the fingerprint of the certificate to accept.
//! The referee makes one per remote seat (`croupier play … --listen`), `croupier serve-bot`
//! one for the referees it serves; the other end gets a copy (scp), never the secret alone.

use super::private::{check_private, write_private};
use ring::rand::{SecureRandom, SystemRandom};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The bytes of a secret.
pub const SECRET_BYTES: usize = 32;

/// A seat's token. Its text is one JSON object:
/// `{"croupier-token":1,"name":…,"address":…,"secret":"<64 hex>","fingerprint":"<64 hex>"}`.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Token {
    /// The token format's version (1).
    #[serde(rename = "croupier-token")]
    pub version: u32,
    /// The seat's name (`remote:NAME`), or `serve-bot` for a bot host's token.
    pub name: String,
    /// Where the other end listens, `HOST:PORT`.
    pub address: String,
    /// The shared secret, in hex.
    secret: String,
    /// The SHA-256 fingerprint of the listening end's certificate, in hex.
    pub fingerprint: String,
}

impl std::fmt::Debug for Token {
    /// Never the secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Token")
            .field("name", &self.name)
            .field("address", &self.address)
            .field("fingerprint", &self.fingerprint)
            .finish_non_exhaustive()
    }
}

impl Token {
    /// A new token with a fresh secret from the system's random numbers.
    pub fn generate(name: &str, address: &str, fingerprint: &str) -> Result<Token, String> {
        let mut secret = [0u8; SECRET_BYTES];
        SystemRandom::new()
            .fill(&mut secret)
            .map_err(|_| "no random numbers from the system".to_string())?;
        Ok(Token {
            version: 1,
            name: name.to_string(),
            address: address.to_string(),
            secret: hex(&secret),
            fingerprint: fingerprint.to_string(),
        })
    }

    /// The secret's bytes.
    pub fn secret(&self) -> [u8; SECRET_BYTES] {
        let mut out = [0u8; SECRET_BYTES];
        for (i, b) in out.iter_mut().enumerate() {
            *b = u8::from_str_radix(&self.secret[2 * i..2 * i + 2], 16).unwrap_or(0);
        }
        out
    }

    /// Reads a token file: refused when others may read it, or when it is not a token (the
    /// message names the file and what is wrong).
    pub fn read(path: &Path) -> Result<Token, String> {
        check_private(path)?;
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let t: Token = serde_json::from_str(text.trim())
            .map_err(|e| format!("{}: not a croupier token file ({e})", path.display()))?;
        let bad = |what: &str| Err(format!("{}: {what}", path.display()));
        if t.version != 1 {
            return bad(&format!("token version {} (this croupier reads version 1)", t.version));
        }
        if !is_hex(&t.secret, 2 * SECRET_BYTES) {
            return bad("its secret is not 64 hex digits");
        }
        if !is_hex(&t.fingerprint, 64) {
            return bad("its fingerprint is not 64 hex digits (a SHA-256)");
        }
        if t.name.is_empty() || t.name.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return bad(&format!("its name '{}' is empty or holds a space", t.name));
        }
        Ok(t)
    }

    /// Writes the token to `path`, mode 0600 ([`write_private`]).
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let mut text = serde_json::to_string(self).expect("a token serializes");
        text.push('\n');
        write_private(path, text.as_bytes())
    }

    /// The token at `path` if there is one for `name` whose fingerprint is `fingerprint`
    /// (its secret is kept: a bot host's copy stays good from run to run); else a new one,
    /// written there. Its address is brought up to date either way.
    pub fn load_or_create(path: &Path, name: &str, address: &str, fingerprint: &str) -> Result<Token, String> {
        if path.exists() {
            let mut t = Token::read(path)?;
            if t.name == name && t.fingerprint == fingerprint {
                if t.address != address {
                    t.address = address.to_string();
                    t.write(path)?;
                }
                return Ok(t);
            }
        }
        let t = Token::generate(name, address, fingerprint)?;
        t.write(path)?;
        Ok(t)
    }
}

/// Lowercase hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn is_hex(s: &str, len: usize) -> bool {
    s.len() == len && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_token_is_written_private_read_back_and_kept_from_run_to_run() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("alice.token");
        let fp = "ab".repeat(32);
        let t = Token::load_or_create(&path, "alice", "127.0.0.1:9000", &fp).unwrap();
        assert_eq!(Token::read(&path).unwrap(), t);
        assert_ne!(t.secret(), [0u8; SECRET_BYTES]);
        assert!(!format!("{t:?}").contains(&t.secret), "Debug never shows the secret");
        // Kept: the same secret, the new address.
        let again = Token::load_or_create(&path, "alice", "10.0.0.1:9000", &fp).unwrap();
        assert_eq!(again.secret(), t.secret());
        assert_eq!(Token::read(&path).unwrap().address, "10.0.0.1:9000");
        // Another certificate: a new token.
        let other = Token::load_or_create(&path, "alice", "10.0.0.1:9000", &"cd".repeat(32)).unwrap();
        assert_ne!(other.secret(), t.secret());
        // Two tokens never share a secret.
        let b = Token::generate("bob", "x:1", &fp).unwrap();
        assert_ne!(b.secret(), other.secret());
    }

    #[test]
    fn a_bad_token_file_is_refused_naming_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.token");
        let write = |text: &str| {
            write_private(&path, text.as_bytes()).unwrap();
            Token::read(&path).unwrap_err()
        };
        assert!(write("hello").contains("not a croupier token file"));
        let good = Token::generate("alice", "h:1", &"ab".repeat(32)).unwrap();
        let json = serde_json::to_string(&good).unwrap();
        assert!(write(&json.replace(&good.secret, "12")).contains("secret is not 64 hex"));
        assert!(write(&json.replace(&"ab".repeat(32), "x")).contains("fingerprint"));
        assert!(write(&json.replace("\"alice\"", "\"a b\"")).contains("holds a space"));
        assert!(write(&json.replace(":1,", ":2,")).contains("version 2"));
        good.write(&path).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        assert!(Token::read(&path).unwrap_err().contains("chmod 600"));
    }
}
