//! The command line: run a lesson and print its trace, serve the world to real clients
//! (`serve-api`), swarm seeds, and the schema and guide the page's files are checked against.

fn main() -> std::process::ExitCode {
    match cli::run(std::env::args().skip(1).collect()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            if let Some(said) = error.report() {
                eprintln!("{said}");
            }
            error.exit_code()
        }
    }
}

mod cli;
