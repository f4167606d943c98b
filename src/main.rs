/// mimalloc instead of the system allocator: croupier allocates many small, short-lived
/// values (records, event lines, search worlds), and glibc's malloc took a quarter to a third of
/// the time of in-process matches and searches, with lock contention when one thread frees what
/// another allocated (a match's records). See BENCHMARKS.md.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    croupier::cli::main()
}
