//! The Korean phrasebook as a module of its own: an English page never reads it, and a page
//! shown in Korean asks for it before it draws (its first screen asks for it beside the wasm).

/// The phrasebook's module: nothing to call, it installs the Korean into the words.
pub struct KoreanModule;

super::modules::split_point!(korean, korean_module, KoreanModule, {
    informer_sim::i18n::install_korean(informer_sim::i18n::KOREAN);
    KoreanModule
});
