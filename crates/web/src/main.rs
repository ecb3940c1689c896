//! The page's program: Trunk builds it for wasm32 (`www/index.html`).

#[cfg(target_arch = "wasm32")]
fn main() {
    informer_web::ui::start();
}

/// The page runs in a browser only; natively there is nothing to run.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("informer-web is the page: build it with Trunk (make serve), run the command line with cargo run");
    std::process::exit(2);
}
