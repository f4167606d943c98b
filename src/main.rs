/// mimalloc instead of the system allocator: croupier allocates many small, short-lived
/// values (records, event lines, search worlds), and glibc's malloc took a quarter to a third of
/// the time of in-process matches and searches, with lock contention when one thread frees what
/// another allocated (a match's records). See BENCHMARKS.md.
///
/// Built without transparent huge pages (mimalloc's `no_thp` feature, Cargo.toml): with them
/// its first arena asked for 2 MiB pages, which the kernel zeroes when they are first touched.
/// `croupier games` then had a max RSS of 11.0 MiB (5.4 without, 3.8 at 0515aac, before mimalloc)
/// and started 1.2× slower, every bot process `croupier bot` too; long runs gained nothing
/// measurable (issue 28, BENCHMARKS.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    croupier::cli::main()
}
