//! The command line: runs the simulation headless.

const HELP: &str = "informer-playground — the Kubernetes list-watch machinery, step by step

USAGE:
    informer-playground <COMMAND>

COMMANDS:
    help        Print this help
";

/// Runs one command line; returns the process exit code.
pub fn run(args: Vec<String>) -> i32 {
    match args.first().map(String::as_str) {
        None | Some("help" | "--help" | "-h") => {
            print!("{HELP}");
            0
        }
        Some(other) => {
            eprintln!("error: unknown command {other:?}\n\n{HELP}");
            2
        }
    }
}
