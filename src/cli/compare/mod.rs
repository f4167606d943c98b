//! `croupier compare`: the CI gate. The candidate and the baseline on the same deals, the test
//! by betting of [`crate::sequential`] deciding deal by deal in order.

mod args;
mod deals;
mod result;
mod resume;
mod run;

pub use args::CompareArgs;
pub use run::run_compare;
