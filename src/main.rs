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
///
/// mimalloc 2 (the `v2` feature), not 3, libmimalloc-sys 0.1.49's default: version 3's
/// arenas set up their bitmaps at the first allocation (42 of the 247 page faults of `croupier
/// games`), and version 2 started `croupier games` as fast as 0515aac's glibc malloc with the
/// same match, search and `stats` throughput as version 3 (BENCHMARKS.md, issue 28).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    croupier::cli::main()
}
