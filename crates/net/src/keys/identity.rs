//! The listening end's identity: a self-signed certificate and its private key, made at the
//! first run and kept (`identity.crt`, `identity.key`, mode 0600), so that its fingerprint, which
//! the other end pins, stays the same from run to run.

use super::private::{check_private, write_private};
use super::token::hex;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use std::path::Path;

/// A certificate and its key, in DER.
pub struct Identity {
    pub cert: CertificateDer<'static>,
    key: Vec<u8>,
}

impl Identity {
    /// The identity kept in `dir`, or a new one made and kept there.
    pub fn load_or_create(dir: &Path) -> Result<Identity, String> {
        let (crt, key) = (dir.join("identity.crt"), dir.join("identity.key"));
        if crt.exists() && key.exists() {
            check_private(&key)?;
            let read = |p: &Path| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()));
            return Ok(Identity {
                cert: CertificateDer::from(read(&crt)?),
                key: read(&key)?,
            });
        }
        let id = Identity::generate()?;
        write_private(&key, &id.key)?;
        write_private(&crt, id.cert.as_ref())?;
        Ok(id)
    }

    /// A new self-signed certificate (ECDSA P-256) for the name `croupier`.
    pub fn generate() -> Result<Identity, String> {
        let made = rcgen::generate_simple_self_signed(vec!["croupier".to_string()])
            .map_err(|e| format!("cannot make a certificate: {e}"))?;
        Ok(Identity {
            cert: made.cert.der().clone(),
            key: made.signing_key.serialize_der(),
        })
    }

    /// An identity from its certificate and key in DER (as [`Identity::key_der`] gives).
    pub fn from_der(cert: Vec<u8>, key: Vec<u8>) -> Identity {
        Identity {
            cert: CertificateDer::from(cert),
            key,
        }
    }

    /// The private key in DER (PKCS#8).
    pub fn key_der(&self) -> &[u8] {
        &self.key
    }

    /// The private key, for a TLS server.
    pub fn key(&self) -> PrivateKeyDer<'static> {
        PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.key.clone()))
    }

    /// The SHA-256 fingerprint of the certificate, in lowercase hex.
    pub fn fingerprint(&self) -> String {
        fingerprint_of(self.cert.as_ref())
    }
}

/// The SHA-256 fingerprint of a DER certificate, in lowercase hex (64 digits).
pub fn fingerprint_of(der: &[u8]) -> String {
    hex(ring::digest::digest(&ring::digest::SHA256, der).as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_identity_is_made_once_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let a = Identity::load_or_create(dir.path()).unwrap();
        let b = Identity::load_or_create(dir.path()).unwrap();
        assert_eq!(a.fingerprint(), b.fingerprint());
        assert_eq!(a.fingerprint().len(), 64);
        assert_ne!(Identity::generate().unwrap().fingerprint(), a.fingerprint());
    }
}
