//! The playground's entry points: the page on wasm32, the command line elsewhere.

#[cfg(target_arch = "wasm32")]
fn main() {
    informer_playground::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(cli::run(std::env::args().skip(1).collect()));
}

#[cfg(not(target_arch = "wasm32"))]
mod cli;
