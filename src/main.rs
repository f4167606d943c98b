fn main() -> std::process::ExitCode {
    croupier::cli::main()
}
