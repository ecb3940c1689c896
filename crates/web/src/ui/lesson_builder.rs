//! The lesson builder: a mode of the page in which an author writes a lesson while the stage
//! runs beside it. It starts from a copy of the lesson on the stage (the sandbox, or any other:
//! its file's JSON, `scenario::draft`), records into the timeline what the author does to the
//! world, adds notes and questions at the step the author is on (the step proposed from the
//! step itself) and challenges whose goal is proposed from what holds now, in Korean and English
//! side by side. Every change is checked by `session::verify` in every release the lesson
//! runs in, the reasons listed beside what they are about. Preview plays it as a learner sees
//! it; Export writes its file, a link that carries it and an embed snippet. A module of its own;
//! the draft lives as long as the page, so closing the builder loses nothing.

use super::lesson_opener::carry;
use super::state::PageState;
use informer_sim::era::Era;
use informer_sim::i18n::Lang;
use informer_sim::scenario::draft::{self, Draft};
use informer_sim::scenario::library::{self, Source};
use informer_sim::scenario::ScenarioError;
use informer_sim::session::link::Link;
use informer_sim::session::Action;
use informer_sim::session::{open_lesson, verify};
use serde_json::{json, Value};
use std::cell::RefCell;
use yew::prelude::*;

pub struct BuilderModule {
    pub panel: fn(UseReducerHandle<PageState>, Callback<Action>, Lang, Callback<()>) -> Html,
}

super::modules::split_point!(
    builder,
    builder_module,
    BuilderModule,
    BuilderModule { panel: |state, send, lang, on_close| html! { <Builder {state} {send} {lang} {on_close} /> } }
);

thread_local! {
    /// The lesson being written, and what its check found.
    static DRAFT: RefCell<Option<(Draft, Checked)>> = const { RefCell::new(None) };
}

/// What the check of a draft found: every reason it does not pass, and where each of its notes
/// and questions shows in each release (`draft::shown_at`; empty while the file does not read).
#[derive(Default)]
struct Checked {
    problems: Vec<ScenarioError>,
    shown: Vec<draft::Shown>,
}

/// The draft's file name in reasons and downloads.
fn file_name(draft: &Draft) -> String {
    format!("{}.json", draft.json().get("id").and_then(Value::as_str).unwrap_or("lesson"))
}

/// Checks the draft as `validate` would, and finds where its notes and questions show.
fn check(draft: &Draft) -> Checked {
    let (file, text) = (file_name(draft), draft.text());
    let problems = verify(&file, &text).err().unwrap_or_default();
    let shown = informer_sim::scenario::Scenario::parse(&file, &text).map(|l| draft::shown_at(&l)).unwrap_or_default();
    Checked { problems, shown }
}

/// Where note or question `i` shows, release by release.
fn shown_line(shown: &[draft::Shown], i: usize, note: bool, lang: Lang) -> Html {
    let each: Vec<String> = shown
        .iter()
        .map(|one| {
            let era = one.era.name();
            match (if note { &one.notes } else { &one.questions }).get(i).copied().flatten() {
                Some(step) => trf!(lang, "{era}: step {step}", &[("era", &era), ("step", &step)]),
                None => trf!(lang, "{era}: no step matches", &[("era", &era)]),
            }
        })
        .collect();
    if each.is_empty() {
        return html! {};
    }
    html! { <p class="builder-shown">{ trf!(lang, "Shows at — {where}", &[("where", &each.join(" · "))]) }</p> }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub state: UseReducerHandle<PageState>,
    pub send: Callback<Action>,
    pub lang: Lang,
    pub on_close: Callback<()>,
}

#[function_component(Builder)]
fn builder(props: &Props) -> Html {
    let lang = props.lang;
    let redraw = use_force_update();
    let exported = use_state(|| None::<String>);
    // The guide's glossary, the term sheet for the Korean side.
    let glossary = use_state(Vec::<informer_sim::scenario::guide::Term>::new);
    {
        let glossary = glossary.clone();
        use_effect_with((), move |_| {
            wasm_bindgen_futures::spawn_local(async move {
                let guide = super::lessons::fetch_text("guide.json").await.ok();
                if let Some(guide) = guide.and_then(|text| informer_sim::scenario::guide::Guide::parse(&text).ok()) {
                    glossary.set(guide.glossary);
                }
            });
        });
    }
    // Changes the draft, then checks it and draws again.
    let edit = {
        let redraw = redraw.clone();
        Callback::from(move |change: Box<dyn FnOnce(&mut Draft)>| {
            DRAFT.with(|d| {
                if let Some((draft, checked)) = d.borrow_mut().as_mut() {
                    change(draft);
                    *checked = check(draft);
                }
            });
            redraw.force_update();
        })
    };
    let start = {
        let (state, redraw) = (props.state.clone(), redraw.clone());
        Callback::from(move |_: MouseEvent| {
            let id = state.read().scenario().map(|s| s.id.clone()).unwrap_or_else(|| "sandbox".into());
            // A bundled lesson's file is fetched; one opened from outside is kept as it came.
            let (bundled, opened) = (library::file_of(&id), library::text_of(&id));
            let redraw = redraw.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let text = match (bundled, opened) {
                    (Some(file), _) => super::lessons::fetch_text(&format!("scenarios/{file}")).await.ok(),
                    (None, opened) => opened.map(|t| t.to_string()),
                };
                let Some(text) = text else { return };
                let Ok(source) = serde_json::from_str::<Value>(&text) else { return };
                if let Some(draft) = Draft::copy(&source, &format!("{id}-copy")) {
                    let checked = check(&draft);
                    DRAFT.with(|d| *d.borrow_mut() = Some((draft, checked)));
                }
                redraw.force_update();
            });
        })
    };
    let on_close = props.on_close.reform(|_: MouseEvent| ());
    let body = DRAFT.with(|d| match &*d.borrow() {
        None => html! {
            <p>
                { tr!(lang, "A lesson starts as a copy of the one on the stage (free play's is the sandbox's): its file, which you then change.") }
                { " " }
                <button type="button" onclick={start}>{ tr!(lang, "Copy the lesson on the stage") }</button>
            </p>
        },
        Some((draft, checked)) => {
            let session = props.state.read();
            let here = Here { step: session.world().steps(), session: &session };
            contents(draft, checked, &here, &edit, &props.send, &exported, lang)
        }
    });
    html! {
        <section class="panel builder" aria-labelledby="builder-heading">
            <h2 id="builder-heading">{ tr!(lang, "Lesson builder") }</h2>
            { body }
            if !glossary.is_empty() {
                <details class="builder-glossary">
                    <summary>{ tr!(lang, "The glossary: the Korean the lessons use for each term, and what they avoid") }</summary>
                    <table>
                        <tbody>{ for glossary.iter().map(|t| html! {
                            <tr><th scope="row">{ &t.english }</th><td>{ &t.korean }</td><td>{ t.avoid.join(", ") }</td></tr>
                        }) }</tbody>
                    </table>
                </details>
            }
            <button type="button" class="secondary" onclick={on_close}>{ tr!(lang, "Close the builder") }</button>
        </section>
    }
}

/// What the stage shows now, which the builder proposes from.
struct Here<'a> {
    step: u64,
    session: &'a informer_sim::session::Session,
}

type Edit = Callback<Box<dyn FnOnce(&mut Draft)>>;

/// A text input bound to one string of the draft (`pointer`), named `label`.
fn field(draft: &Draft, pointer: &str, label: String, long: bool, edit: &Edit) -> Html {
    let value = draft.get(pointer).and_then(Value::as_str).unwrap_or_default().to_string();
    let (pointer, edit) = (pointer.to_string(), edit.clone());
    let on_change = Callback::from(move |e: Event| {
        let text = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
        let pointer = pointer.clone();
        edit.emit(Box::new(move |d: &mut Draft| {
            let _ = d.set(&pointer, text.into());
        }));
    });
    html! {
        <label class="builder-field">
            <span>{ label }</span>
            if long {
                <textarea rows="2" {value} onchange={on_change} />
            } else {
                <input type="text" {value} onchange={on_change} />
            }
        </label>
    }
}

/// An input bound to one JSON value of the draft (a step's `match`, claims, a timeline entry,
/// hints): what is typed is kept as JSON when it reads as JSON, else as the text itself, which
/// the check then names as the wrong type it is.
fn json_field(draft: &Draft, pointer: &str, label: String, edit: &Edit) -> Html {
    let value = draft.get(pointer).map(Value::to_string).unwrap_or_default();
    let (pointer, edit) = (pointer.to_string(), edit.clone());
    let on_change = Callback::from(move |e: Event| {
        let text = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
        let value = serde_json::from_str::<Value>(&text).unwrap_or(Value::String(text));
        let pointer = pointer.clone();
        edit.emit(Box::new(move |d: &mut Draft| {
            let _ = d.set(&pointer, value);
        }));
    });
    html! {
        <label class="builder-field">
            <span>{ label }</span>
            <input type="text" class="mono" spellcheck="false" {value} onchange={on_change} />
        </label>
    }
}

/// The stage a note points at on the diagram (`look_at`), or none.
fn look_at(draft: &Draft, note: &str, i: usize, edit: &Edit, lang: Lang) -> Html {
    let pointer = format!("{note}/look_at");
    let current = draft.get(&pointer).and_then(Value::as_str).unwrap_or_default().to_string();
    let edit = edit.clone();
    let at = pointer.clone();
    let on_change = Callback::from(move |e: Event| {
        let chosen = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
        let at = at.clone();
        edit.emit(Box::new(move |d: &mut Draft| match chosen.is_empty() {
            true => {
                d.unset(&at);
            }
            false => {
                d.set(&at, chosen.into());
            }
        }))
    });
    html! {
        <label class="builder-field">
            <span>{ trf!(lang, "Note {n}: the stage it points at", &[("n", &(i + 1))]) }</span>
            <select onchange={on_change}>
                <option value="" selected={current.is_empty()}>{ tr!(lang, "(none)") }</option>
                { for informer_sim::kernel::Stage::ALL.iter().map(|s| html! {
                    <option value={s.name()} selected={current == s.name()}>{ s.name() }</option>
                }) }
            </select>
        </label>
    }
}

/// Korean and English of one text, side by side.
fn both(draft: &Draft, pointer: &str, what: &str, long: bool, edit: &Edit, lang: Lang) -> Html {
    html! {
        <div class="builder-pair">
            { field(draft, &format!("{pointer}/ko"), trf!(lang, "{what} (Korean)", &[("what", &what)]), long, edit) }
            { field(draft, &format!("{pointer}/en"), trf!(lang, "{what} (English)", &[("what", &what)]), long, edit) }
        </div>
    }
}

/// The reasons about the part at `path` (`narration[2]`, `questions[0]`, …): beside it.
fn reasons_at(problems: &[ScenarioError], path: &str) -> Html {
    let here: Vec<&ScenarioError> = problems
        .iter()
        .filter(|p| {
            p.path == path || p.path.starts_with(&format!("{path}.")) || p.path.starts_with(&format!("{path}["))
        })
        .collect();
    if here.is_empty() {
        return html! {};
    }
    html! { <ul class="builder-reasons">{ for here.iter().map(|p| html! { <li class="mono">{ p.to_string() }</li> }) }</ul> }
}

fn contents(
    draft: &Draft,
    checked: &Checked,
    here: &Here,
    edit: &Edit,
    send: &Callback<Action>,
    exported: &UseStateHandle<Option<String>>,
    lang: Lang,
) -> Html {
    let (problems, shown) = (checked.problems.as_slice(), checked.shown.as_slice());
    let step = here.step;
    let eras = draft.eras();
    let era_box = |era: Era| {
        let edit = edit.clone();
        let ticked = eras.contains(&era);
        let eras = eras.clone();
        let toggle = Callback::from(move |_: Event| {
            let mut next: Vec<Era> = eras.iter().copied().filter(|e| *e != era).collect();
            if !ticked {
                next.push(era);
            }
            edit.emit(Box::new(move |d: &mut Draft| d.set_eras(&next)));
        });
        html! { <label class="inline"><input type="checkbox" checked={ticked} onchange={toggle} />{ era.name() }</label> }
    };
    let pattern = draft::pattern_of(here.session.visible_trace(), step);
    // The author's moves so far, as the timeline would say them.
    let acts: Vec<(u64, informer_sim::world::Intervention)> =
        here.session.acts().into_iter().map(|(at, act)| (at, act.clone())).collect();
    let record = {
        let (edit, acts) = (edit.clone(), acts.clone());
        Callback::from(move |_: MouseEvent| {
            let acts = acts.clone();
            edit.emit(Box::new(move |d: &mut Draft| {
                acts.iter().for_each(|(at, act)| {
                    let _ = d.record(*at, act);
                })
            }))
        })
    };
    let add_note = pattern.clone().map(|when| {
        let edit = edit.clone();
        Callback::from(move |_: MouseEvent| {
            let note = json!({"match": when, "text": draft::text("", ""), "claims": [draft::happens(&when)]});
            edit.emit(Box::new(move |d: &mut Draft| {
                let _ = d.push("narration", note);
            }))
        })
    });
    let add_question = pattern.clone().map(|when| {
        let edit = edit.clone();
        Callback::from(move |_: MouseEvent| {
            let blank = || draft::text("", "");
            let question = json!({"match": when, "ask": blank(), "choices": [blank(), blank()], "answer": 0,
                "explain": blank(), "explain_at": when, "claims": [draft::happens(&when)]});
            edit.emit(Box::new(move |d: &mut Draft| {
                let _ = d.push("questions", question);
            }))
        })
    });
    let add_challenge = {
        let edit = edit.clone();
        let goal = draft::goal_now(here.session.world(), here.session.visible_trace());
        let moves: Vec<Value> = here
            .session
            .link()
            .actions
            .iter()
            .filter_map(|(at, action)| match action {
                Action::Kubectl(line) => Some(json!({"at_step": at, "console": line})),
                Action::Fault(fault) => informer_sim::world::Fault::NAMES
                    .iter()
                    .find(|n| informer_sim::world::Fault::named(n).as_ref() == Some(fault))
                    .map(|name| json!({"at_step": at, "fault": name})),
                _ => None,
            })
            .collect();
        Callback::from(move |_: MouseEvent| {
            let (goal, moves) = (goal.clone(), moves.clone());
            edit.emit(Box::new(move |d: &mut Draft| {
                let id = format!("challenge-{}", d.list("challenges").len() + 1);
                let challenge = json!({"id": id, "task": draft::text("", ""), "goal": goal, "hints": [],
                    "solved": draft::text("", ""), "solution": moves});
                let _ = d.push("challenges", challenge);
            }))
        })
    };
    let remove = |list: &'static str, i: usize| {
        let edit = edit.clone();
        Callback::from(move |_: MouseEvent| edit.emit(Box::new(move |d: &mut Draft| d.remove(list, i))))
    };
    let timeline = (0..draft.list("timeline").len()).map(|i| {
        html! { <li>{ json_field(draft, &format!("/timeline/{i}"), trf!(lang, "Timeline entry {n}", &[("n", &(i + 1))]), edit) }<button type="button" class="small secondary" onclick={remove("timeline", i)} aria-label={trf!(lang, "Remove timeline entry {n}", &[("n", &(i + 1))])}>{ tr!(lang, "Remove") }</button>{ reasons_at(problems, &format!("timeline[{i}]")) }</li> }
    });
    let notes = (0..draft.list("narration").len()).map(|i| {
        let at = format!("/narration/{i}");
        html! {
            <li>
                { json_field(draft, &format!("{at}/match"), trf!(lang, "Note {n}: shown from the step", &[("n", &(i + 1))]), edit) }
                { shown_line(shown, i, true, lang) }
                { both(draft, &format!("{at}/text"), tr!(lang, "Note"), true, edit, lang) }
                { look_at(draft, &at, i, edit, lang) }
                { json_field(draft, &format!("{at}/claims"), trf!(lang, "Note {n}: what it claims the run shows", &[("n", &(i + 1))]), edit) }
                <button type="button" class="small secondary" onclick={remove("narration", i)} aria-label={trf!(lang, "Remove note {n}", &[("n", &(i + 1))])}>{ tr!(lang, "Remove") }</button>
                { reasons_at(problems, &format!("narration[{i}]")) }
            </li>
        }
    });
    let questions = draft.list("questions").iter().enumerate().map(|(i, q)| {
        let at = format!("/questions/{i}");
        let choices = q["choices"].as_array().map_or(0, Vec::len);
        let add_choice = {
            let edit = edit.clone();
            Callback::from(move |_: MouseEvent| {
                edit.emit(Box::new(move |d: &mut Draft| {
                    let _ = d.push(&format!("/questions/{i}/choices"), draft::text("", ""));
                }))
            })
        };
        let answer = {
            let edit = edit.clone();
            Callback::from(move |e: Event| {
                let n: u64 = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value().parse().unwrap_or(0);
                edit.emit(Box::new(move |d: &mut Draft| { let _ = d.set(&format!("/questions/{i}/answer"), n.into()); }))
            })
        };
        let right = q["answer"].as_u64().unwrap_or(0) as usize;
        html! {
            <li>
                { json_field(draft, &format!("{at}/match"), trf!(lang, "Question {n}: asked at the step", &[("n", &(i + 1))]), edit) }
                { shown_line(shown, i, false, lang) }
                { both(draft, &format!("{at}/ask"), tr!(lang, "Question"), false, edit, lang) }
                { for (0..choices).map(|c| both(draft, &format!("{at}/choices/{c}"), &trf!(lang, "Choice {n}", &[("n", &(c + 1))]), false, edit, lang)) }
                if choices < 4 {
                    <button type="button" class="small secondary" onclick={add_choice}>{ tr!(lang, "Add a choice") }</button>
                }
                <label class="inline">{ tr!(lang, "Right answer") }
                    <select onchange={answer}>{ for (0..choices).map(|c| html! { <option value={c.to_string()} selected={c == right}>{ c + 1 }</option> }) }</select>
                </label>
                { both(draft, &format!("{at}/explain"), tr!(lang, "Explanation"), true, edit, lang) }
                { json_field(draft, &format!("{at}/claims"), trf!(lang, "Question {n}: what it claims the run shows", &[("n", &(i + 1))]), edit) }
                <button type="button" class="small secondary" onclick={remove("questions", i)} aria-label={trf!(lang, "Remove question {n}", &[("n", &(i + 1))])}>{ tr!(lang, "Remove") }</button>
                { reasons_at(problems, &format!("questions[{i}]")) }
            </li>
        }
    });
    let challenges = draft.list("challenges").iter().enumerate().map(|(i, c)| {
        let at = format!("/challenges/{i}");
        html! {
            <li>
                { both(draft, &format!("{at}/task"), tr!(lang, "Task"), true, edit, lang) }
                <p>{ tr!(lang, "Goal (what held when it was added):") }</p>
                <ul class="mono">{ for c["goal"].as_array().into_iter().flatten().enumerate().map(|(g, check)| {
                    let edit = edit.clone();
                    let drop_check = Callback::from(move |_: MouseEvent| {
                        edit.emit(Box::new(move |d: &mut Draft| d.remove(&format!("/challenges/{i}/goal"), g)))
                    });
                    html! { <li>{ check.to_string() }{ " " }<button type="button" class="small secondary" onclick={drop_check} aria-label={trf!(lang, "Remove check {n} from the goal", &[("n", &(g + 1))])}>{ tr!(lang, "Remove") }</button></li> }
                }) }</ul>
                { json_field(draft, &format!("{at}/goal"), trf!(lang, "Challenge {n}: its goal, as checks", &[("n", &(i + 1))]), edit) }
                <p>{ tr!(lang, "Solution (your moves):") }</p>
                <ul class="mono">{ for c["solution"].as_array().into_iter().flatten().map(|m| html! { <li>{ m.to_string() }</li> }) }</ul>
                { both(draft, &format!("{at}/solved"), tr!(lang, "Said when solved"), true, edit, lang) }
                { json_field(draft, &format!("{at}/hints"), trf!(lang, "Challenge {n}: hints, shown one at a time", &[("n", &(i + 1))]), edit) }
                <button type="button" class="small secondary" onclick={remove("challenges", i)} aria-label={trf!(lang, "Remove challenge {n}", &[("n", &(i + 1))])}>{ tr!(lang, "Remove") }</button>
                { reasons_at(problems, &format!("challenges[{i}]")) }
            </li>
        }
    });
    // Each release's own notes (told before the shared ones in that release).
    let era_notes = eras.iter().flat_map(|era| {
        let notes = draft.get(&format!("/eras/{era}/narration")).and_then(Value::as_array).cloned().unwrap_or_default();
        notes.into_iter().enumerate().map(move |(i, note)| (*era, i, note))
    }).map(|(era, i, note)| {
        let at = format!("/eras/{era}/narration/{i}");
        let edit2 = edit.clone();
        let drop_note = Callback::from(move |_: MouseEvent| {
            edit2.emit(Box::new(move |d: &mut Draft| d.remove(&format!("/eras/{era}/narration"), i)))
        });
        html! {
            <li>
                <p class="mono">{ trf!(lang, "In {era} only, shown from the step: {pattern}", &[("era", &era.name()), ("pattern", &note["match"].to_string())]) }</p>
                { both(draft, &format!("{at}/text"), tr!(lang, "Note"), true, edit, lang) }
                <button type="button" class="small secondary" onclick={drop_note} aria-label={trf!(lang, "Remove {era}'s note {n}", &[("era", &era.name()), ("n", &(i + 1))])}>{ tr!(lang, "Remove") }</button>
                { reasons_at(problems, &format!("eras.{era}.narration[{i}]")) }
            </li>
        }
    }).collect::<Vec<Html>>();
    let watch_cache = draft.get("/config/watch_cache").and_then(Value::as_bool).unwrap_or(true);
    let toggle_cache = {
        let edit = edit.clone();
        Callback::from(move |_: Event| {
            edit.emit(Box::new(move |d: &mut Draft| {
                let mut config = d.get("/config").cloned().unwrap_or_else(|| json!({}));
                config["watch_cache"] = (!watch_cache).into();
                let _ = d.set("/config", config);
            }))
        })
    };
    let expectations = draft.list("expect").iter().enumerate().map(|(i, e)| {
        html! { <li><code>{ e.to_string() }</code>{ " " }<button type="button" class="small secondary" onclick={remove("expect", i)} aria-label={trf!(lang, "Remove expectation {n}", &[("n", &(i + 1))])}>{ tr!(lang, "Remove") }</button>{ reasons_at(problems, &format!("expect[{i}]")) }</li> }
    });
    let text = draft.text();
    let preview = {
        let (text, file, send) = (text.clone(), file_name(draft), send.clone());
        let ok = problems.is_empty();
        Callback::from(move |_: MouseEvent| {
            if !ok {
                return;
            }
            let (text, file, send) = (text.clone(), file.clone(), send.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let source = carry(&text).await.map_or(Source::Local, Source::Carried);
                if let Ok(lesson) = open_lesson(&file, &text, source) {
                    send.emit(Action::LoadScenario(lesson.id.clone()));
                }
            });
        })
    };
    let download = {
        let (text, file) = (text.clone(), file_name(draft));
        Callback::from(move |_: MouseEvent| super::share_dialog::save(&file, "application/json", &text))
    };
    let export = {
        let (text, exported) = (text.clone(), exported.clone());
        let id = draft.json().get("id").and_then(Value::as_str).unwrap_or_default().to_string();
        Callback::from(move |_: MouseEvent| {
            let (text, exported, id) = (text.clone(), exported.clone(), id.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let Some(carried) = carry(&text).await else { return };
                let link = Link { lesson: Some(Source::Carried(carried)), scenario: Some(id), ..Default::default() };
                exported.set(Some(informer_sim::views::export::share(&super::page_address(), &link).link));
            });
        })
    };
    let share = exported.as_ref().map(|link| {
        let mut embedded = link.clone();
        embedded.push_str("&embed=1");
        let snippet = format!(
            "<iframe src=\"{}\" title=\"informer-playground\" width=\"100%\" height=\"560\" style=\"border: 0\" loading=\"lazy\"></iframe>",
            embedded.replace('&', "&amp;").replace('"', "&quot;")
        );
        html! {
            <div class="builder-export">
                <label>{ tr!(lang, "Link that carries the lesson") }<input type="text" readonly=true value={link.clone()} /></label>
                <label>{ tr!(lang, "Embed snippet") }<textarea readonly=true rows="3" value={snippet} /></label>
            </div>
        }
    });
    let status = match problems.len() {
        0 => {
            html! { <p class="builder-ok" role="status">{ trf!(lang, "Passes every check in {eras}.", &[("eras", &eras.iter().map(|e| e.name()).collect::<Vec<_>>().join(", "))]) }</p> }
        }
        n => html! {
            <div class="builder-problems" role="status">
                <p>{ trf!(lang, "{n} reasons it does not pass yet:", &[("n", &n)]) }</p>
                <ul>{ for problems.iter().map(|p| html! { <li class="mono">{ p.to_string() }</li> }) }</ul>
            </div>
        },
    };
    let unset = |pointer: &'static str| {
        let edit = edit.clone();
        Callback::from(move |_: MouseEvent| {
            edit.emit(Box::new(move |d: &mut Draft| {
                d.unset(pointer);
            }))
        })
    };
    let add_recap = pattern.clone().map(|when| {
        let edit = edit.clone();
        Callback::from(move |_: MouseEvent| {
            let recap = json!({"en": "", "ko": "", "claims": [draft::happens(&when)]});
            edit.emit(Box::new(move |d: &mut Draft| {
                d.set("/recap", recap);
            }))
        })
    });
    let recap = match draft.get("/recap") {
        Some(_) => html! {
            <>
                { both(draft, "/recap", tr!(lang, "Recap"), true, edit, lang) }
                { json_field(draft, "/recap/claims", tr!(lang, "Recap: what it claims the run shows").into(), edit) }
                <button type="button" class="small secondary" onclick={unset("/recap")}>{ tr!(lang, "Remove the recap") }</button>
                { reasons_at(problems, "recap") }
            </>
        },
        None => html! {
            <button type="button" onclick={add_recap.unwrap_or_default()} disabled={pattern.is_none()}>{ tr!(lang, "Add a recap") }</button>
        },
    };
    // A release's own title, told instead of the shared one there.
    let era_titles = eras.iter().map(|era| {
        let pointer = format!("/eras/{era}/title");
        match draft.get(&pointer) {
            Some(_) => {
                let (send_edit, at) = (edit.clone(), pointer.clone());
                let drop_title = Callback::from(move |_: MouseEvent| {
                    let at = at.clone();
                    send_edit.emit(Box::new(move |d: &mut Draft| { d.unset(&at); }))
                });
                html! {
                    <>
                        { both(draft, &pointer, &trf!(lang, "Title in {era}", &[("era", &era.name())]), false, edit, lang) }
                        <button type="button" class="small secondary" onclick={drop_title}>{ trf!(lang, "Remove {era}'s own title", &[("era", &era.name())]) }</button>
                        { reasons_at(problems, &format!("eras.{era}.title")) }
                    </>
                }
            }
            None => {
                let (edit, at) = (edit.clone(), pointer.clone());
                let shared = draft.get("/title").cloned().unwrap_or_else(|| draft::text("", ""));
                let own_title = Callback::from(move |_: MouseEvent| {
                    let (at, shared) = (at.clone(), shared.clone());
                    edit.emit(Box::new(move |d: &mut Draft| { d.set(&at, shared); }))
                });
                html! { <button type="button" class="small secondary" onclick={own_title}>{ trf!(lang, "Give {era} a title of its own", &[("era", &era.name())]) }</button> }
            }
        }
    });
    html! {
        <>
            { status }
            <div class="builder-pair">
                { field(draft, "/id", tr!(lang, "Lesson id (letters, digits, -)").into(), false, edit) }
                <fieldset class="builder-eras"><legend>{ tr!(lang, "Releases it runs in") }</legend>{ for Era::ALL.iter().map(|e| era_box(*e)) }</fieldset>
            </div>
            <label class="inline"><input type="checkbox" checked={watch_cache} onchange={toggle_cache} />{ tr!(lang, "The API server's watch cache (off: every read and watch goes to etcd)") }</label>
            { both(draft, "/title", tr!(lang, "Title"), false, edit, lang) }
            <div class="builder-era-titles">{ for era_titles }</div>
            { both(draft, "/summary", tr!(lang, "Summary"), true, edit, lang) }
            <h3>{ tr!(lang, "Timeline") }</h3>
            <ol>{ for timeline }</ol>
            <button type="button" onclick={record} disabled={acts.is_empty()}>{ trf!(lang, "Add what you did to the timeline ({n})", &[("n", &acts.len())]) }</button>
            <h3>{ tr!(lang, "Notes") }</h3>
            <ol>{ for notes }{ for era_notes }</ol>
            <button type="button" onclick={add_note.unwrap_or_default()} disabled={pattern.is_none()}>{ trf!(lang, "Add a note at step {step}", &[("step", &step)]) }</button>
            <h3>{ tr!(lang, "Questions") }</h3>
            <ol>{ for questions }</ol>
            <button type="button" onclick={add_question.unwrap_or_default()} disabled={pattern.is_none()}>{ trf!(lang, "Add a question at step {step}", &[("step", &step)]) }</button>
            <h3>{ tr!(lang, "Challenges") }</h3>
            <ol>{ for challenges }</ol>
            <button type="button" onclick={add_challenge}>{ tr!(lang, "Add a challenge solved by your moves, its goal what holds now") }</button>
            <h3>{ tr!(lang, "Recap") }</h3>
            { recap }
            <h3>{ tr!(lang, "Expectations") }</h3>
            <ol>{ for expectations }</ol>
            <div class="builder-actions">
                <button type="button" onclick={preview} disabled={!problems.is_empty()}>{ tr!(lang, "Preview") }</button>
                <button type="button" onclick={download}>{ tr!(lang, "Download the file") }</button>
                <button type="button" onclick={export}>{ tr!(lang, "Make a link and an embed") }</button>
            </div>
            { for share }
        </>
    }
}
