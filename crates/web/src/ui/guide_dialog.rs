//! The facilitator's guide in the page (`informer_sim::scenario::guide`): fetched from `guide.json`, beside
//! the page, when it opens — nothing of it is in the first load. A lesson's name opens it.

use super::lessons::fetch_text;
use super::marked::marked;
use informer_sim::i18n::Lang;
use informer_sim::scenario::guide::Guide;
use informer_sim::scenario::library;
use informer_sim::session::Action;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub lang: Lang,
    pub on_action: Callback<Action>,
    pub on_close: Callback<()>,
}

#[function_component(GuideDialog)]
pub fn guide_dialog(props: &Props) -> Html {
    let lang = props.lang;
    let guide = use_state(|| None::<Result<Guide, String>>);
    {
        let guide = guide.clone();
        use_effect_with((), move |_| {
            wasm_bindgen_futures::spawn_local(async move {
                guide.set(Some(fetch_text("guide.json").await.and_then(|text| Guide::parse(&text))));
            });
        });
    }
    let on_close = props.on_close.reform(|_: MouseEvent| ());
    let body = match &*guide {
        None => html! { <p role="status">{ tr!(lang, "Loading the guide…") }</p> },
        Some(Err(e)) => {
            html! { <p class="notice" role="alert">{ trf!(lang, "The guide could not be loaded: {error}", &[("error", e)]) }</p> }
        }
        Some(Ok(guide)) => contents(guide, lang, &props.on_action, &props.on_close),
    };
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="guide-heading">
            <div class="panel guide">
                <h2 id="guide-heading">{ tr!(lang, "Facilitator's guide") }</h2>
                { body }
                <button type="button" onclick={on_close} aria-keyshortcuts="Escape">{ tr!(lang, "Close") }</button>
            </div>
        </div>
    }
}

fn contents(guide: &Guide, lang: Lang, on_action: &Callback<Action>, on_close: &Callback<()>) -> Html {
    let lessons = library::index();
    let open = |id: &str| {
        let (id, on_action, on_close) = (id.to_string(), on_action.clone(), on_close.clone());
        Callback::from(move |_: MouseEvent| {
            on_action.emit(Action::LoadScenario(id.clone()));
            on_close.emit(());
        })
    };
    let parts = guide.parts.iter().map(|part| {
        let rows = part.lessons.iter().filter_map(|entry| {
            let (n, lesson) = lessons.iter().enumerate().find(|(_, head)| head.id == entry.id)?;
            Some(html! {
                <tr>
                    <th scope="row"><button type="button" class="link" onclick={open(&entry.id)}>{ format!("{}. {}", n + 1, lesson.title_in(lesson.era()).get(lang)) }</button></th>
                    <td>{ trf!(lang, "{n} min", &[("n", &entry.minutes)]) }</td>
                    <td lang={lang.code()}>{ marked(entry.say.get(lang)) }</td>
                </tr>
            })
        });
        html! { <>
            <h3>{ part.title.get(lang) }</h3>
            <table>
                <thead><tr><th scope="col">{ tr!(lang, "Lesson") }</th><th scope="col">{ tr!(lang, "Time") }</th><th scope="col">{ tr!(lang, "What to say") }</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </> }
    });
    let track = &guide.short_track;
    let title_of = |id: &str| {
        let (n, lesson) = lessons.iter().enumerate().find(|(_, head)| head.id == id)?;
        Some((n + 1, lesson.title_in(lesson.era()).get(lang).to_string()))
    };
    let blocks = track.blocks.iter().map(|block| {
        let played = block.lessons.iter().filter_map(|id| {
            let (n, title) = title_of(id)?;
            Some(html! { <li><button type="button" class="link" onclick={open(id)}>{ format!("{n}. {title}") }</button></li> })
        });
        html! {
            <tr>
                <td>{ trf!(lang, "{n} min", &[("n", &guide.block_minutes(block))]) }</td>
                <td lang={lang.code()}>{ marked(block.say.get(lang)) }if !block.lessons.is_empty() { <ul class="track-lessons">{ for played }</ul> }</td>
            </tr>
        }
    });
    html! { <>
        <p>{ marked(guide.intro.get(lang)) }</p>
        <p>{ trf!(lang, "The two parts take about {n} minutes.", &[("n", &guide.minutes())]) }</p>
        <ul>{ for guide.prepare.iter().map(|tip| html! { <li>{ marked(tip.get(lang)) }</li> }) }</ul>
        { for parts }
        <h3>{ track.title.get(lang) }</h3>
        <table>
            <thead><tr><th scope="col">{ tr!(lang, "Time") }</th><th scope="col">{ tr!(lang, "What to say") }</th></tr></thead>
            <tbody>{ for blocks }</tbody>
        </table>
        <p lang={lang.code()}>{ marked(track.left_out.get(lang)) }</p>
        <p class="closing-discussion">{ marked(guide.closing.get(lang)) }</p>
        <h3>{ guide.own_controller.title.get(lang) }</h3>
        <p>{ marked(guide.own_controller.intro.get(lang)) }</p>
        <ol>{ for guide.own_controller.exercises.iter().map(|e| html! { <li>{ marked(e.get(lang)) }</li> }) }</ol>
        <h3>{ tr!(lang, "Glossary") }</h3>
        <table>
            <thead><tr><th scope="col">{ "English" }</th><th scope="col">{ "한국어" }</th><th scope="col">{ tr!(lang, "Not used") }</th></tr></thead>
            <tbody>{ for guide.glossary.iter().map(|t| html! {
                <tr><th scope="row">{ &t.english }</th><td lang="ko">{ &t.korean }</td><td lang="ko">{ t.avoid.join(", ") }</td></tr>
            }) }</tbody>
        </table>
    </> }
}

/// The guide's module: the dialog and the guide's reader.
pub struct GuideModule {
    pub dialog: fn(Lang, Callback<Action>, Callback<()>) -> Html,
}

super::modules::split_point!(
    guide,
    guide_module,
    GuideModule,
    GuideModule { dialog: |lang, on_action, on_close| html! { <GuideDialog {lang} {on_action} {on_close} /> } }
);
