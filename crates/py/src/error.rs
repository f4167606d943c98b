//! The one error Python sees from this package: ValueError with croupier's message.

use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

pub fn err(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}
