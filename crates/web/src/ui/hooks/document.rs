//! What the page tells the document about itself: its language (remembered outside embeds)
//! and its theme.

use informer_sim::i18n::Lang;
use informer_sim::session::link::Theme;
use informer_sim::session::page_contract;
use yew::prelude::*;

fn root() -> Option<web_sys::Element> {
    web_sys::window()?.document()?.document_element()
}

/// The document says which language it is in; outside an embed the choice is remembered (an
/// embed's language is the host page's choice, never another tab's).
#[hook]
pub fn use_remembered_language(lang: Lang, embed: bool) {
    use_effect_with(lang, move |lang| {
        let code = lang.code();
        let storage = web_sys::window().and_then(|w| w.local_storage().ok().flatten()).filter(|_| !embed);
        if let Some(storage) = storage {
            let _ = storage.set_item(page_contract::LANGUAGE_KEY, code);
        }
        // Set only when it changes: first-screen.js gave the document the language it opens in,
        // and setting it again would style the whole page anew.
        if let Some(root) = root().filter(|root| root.get_attribute("lang").as_deref() != Some(code)) {
            let _ = root.set_attribute("lang", code);
        }
    });
}

/// The theme: the system's unless one was chosen.
#[hook]
pub fn use_theme(theme: Option<Theme>) {
    use_effect_with(theme, |theme| {
        // (As the language: first-screen.js applied a linked theme already.)
        let Some(root) = root().filter(|root| root.get_attribute("data-theme").as_deref() != theme.map(Theme::name))
        else {
            return;
        };
        let _ = match theme {
            Some(theme) => root.set_attribute("data-theme", theme.name()),
            None => root.remove_attribute("data-theme"),
        };
    });
}
