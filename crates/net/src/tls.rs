//! TLS 1.3 configurations. The listening end shows its self-signed [`Identity`]; the connecting
//! end accepts it only if its SHA-256 fingerprint is the one it pinned (from the seat's token),
//! and checks that the server holds the certificate's key, as TLS does for any certificate.
//! No certificate authority is involved: the pin is the trust.

use crate::keys::{fingerprint_of, Identity};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, Error, ServerConfig, SignatureScheme};
use std::sync::Arc;

/// The name both ends use for the server (the certificate is made for it).
pub const SERVER_NAME: &str = "croupier";

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The listening end's configuration: TLS 1.3, its identity, no client certificates (a
/// client proves itself with its seat's secret, [`crate::auth`]).
pub fn server_config(id: &Identity) -> Result<Arc<ServerConfig>, String> {
    let cfg = ServerConfig::builder_with_provider(provider())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(vec![id.cert.clone()], id.key())
        .map_err(|e| format!("the certificate or its key is unusable: {e}"))?;
    Ok(Arc::new(cfg))
}

/// The connecting end's configuration: TLS 1.3, accepting only the certificate whose
/// fingerprint is `fingerprint` (64 hex digits).
pub fn client_config(fingerprint: &str) -> Result<Arc<ClientConfig>, String> {
    let provider = provider();
    let verifier = Pinned {
        fingerprint: fingerprint.to_ascii_lowercase(),
        provider: provider.clone(),
    };
    let cfg = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    Ok(Arc::new(cfg))
}

/// The server name to give a client connection.
pub fn server_name() -> ServerName<'static> {
    ServerName::try_from(SERVER_NAME).expect("a valid DNS name")
}

/// Accepts the one certificate whose fingerprint was pinned; its signatures are checked with
/// the provider's algorithms.
#[derive(Debug)]
struct Pinned {
    fingerprint: String,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        let got = fingerprint_of(end_entity.as_ref());
        if got == self.fingerprint {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(Error::General(format!(
                "the server's certificate has fingerprint {got}, not the pinned {}: another \
                 server, or the referee made a new identity (get a new token)",
                self.fingerprint
            )))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        verify_tls12_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        verify_tls13_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider.signature_verification_algorithms.supported_schemes()
    }
}
