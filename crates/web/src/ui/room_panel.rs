//! A page in a workshop room (`?room=`), loaded as a module of its own: the room's bar above
//! the stage. An attendee's page follows the facilitator's lesson, release, moves and step
//! (with a mark that says so), may step away and come back, and votes on the question the
//! facilitator opens; the projector follows and shows only how many answered until Reveal;
//! the facilitator's page tells the room where it is, opens, closes and reveals votes, and
//! sees who follows, the histograms, the challenges' counts and the report.

use super::marked::marked;
use super::room_client::{self, Events, Failed, Heard, Who};
use super::state::PageState;
use informer_sim::i18n::Lang;
use informer_sim::room::{ChallengeMark, Place, Request, RoomView, VoteKey, VoteView};
use informer_sim::scenario::format::Question;
use informer_sim::scenario::library;
use informer_sim::session::link::RoomLink;
use informer_sim::session::Action;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The room's module: the bar, and the challenge panel's reports of hints and solutions.
pub struct RoomModule {
    pub bar: fn(RoomLink, UseReducerHandle<PageState>, Lang) -> Html,
    pub challenge: fn(usize, ChallengeMark),
}

super::modules::split_point!(
    room,
    room_module,
    RoomModule,
    RoomModule { bar: |room, state, lang| html! { <RoomBar {room} {state} {lang} /> }, challenge: report_challenge }
);

thread_local! {
    /// Where an attendee's challenge reports go: the room's code, their id and the lesson.
    static ATTENDING: RefCell<Option<(String, String, String)>> = const { RefCell::new(None) };
}

/// A hint opened or a solution played, counted for the facilitator.
fn report_challenge(challenge: usize, mark: ChallengeMark) {
    let Some((code, id, lesson)) = ATTENDING.with(|a| a.borrow().clone()) else { return };
    let request = Request::Challenge { attendee: informer_sim::room::AttendeeId(id), lesson, challenge, mark };
    wasm_bindgen_futures::spawn_local(async move {
        let _ = room_client::send(&code, &request, None).await;
    });
}

#[derive(Properties, PartialEq)]
struct Props {
    room: RoomLink,
    state: UseReducerHandle<PageState>,
    lang: Lang,
}

/// How the page hears the room.
#[derive(Clone, Copy, PartialEq)]
enum Line {
    Connecting,
    Live,
    Reconnecting,
    /// The room refused the stream or cannot be reached: the page goes on alone.
    Alone,
}

/// Requests sent one at a time, in order; of the facilitator's places waiting, only the newest
/// is kept: a facilitator stepping quickly sends each place the room has not yet heard, never
/// a queue of old ones.
#[derive(Default)]
struct Outbox {
    busy: bool,
    waiting: std::collections::VecDeque<Request>,
    /// The lesson files from outside the room has taken from this page: each lesson's id and
    /// its file's digest.
    brought: std::collections::BTreeMap<String, String>,
}

fn post(
    outbox: &Rc<RefCell<Outbox>>,
    code: &str,
    who: &Who,
    request: Request,
    refused: UseStateHandle<Option<Failed>>,
) {
    {
        let mut out = outbox.borrow_mut();
        if out.busy {
            if matches!(request, Request::Place { .. }) {
                out.waiting.retain(|r| !matches!(r, Request::Place { .. }));
            }
            out.waiting.push_back(request);
            return;
        }
        out.busy = true;
    }
    let (outbox, code, key) = (outbox.clone(), code.to_string(), who.key().map(String::from));
    wasm_bindgen_futures::spawn_local(async move {
        let mut request = Some(request);
        while let Some(sending) = request.take() {
            let answer = room_client::send(&code, &sending, key.as_deref()).await;
            let mut out = outbox.borrow_mut();
            if let (Request::Lesson { text }, Err(_)) = (&sending, &answer) {
                // Not taken: the places in it would be refused for want of it, and the file is
                // sent again with the next step; its reason is the one shown.
                let file = library::digest(text);
                out.brought.retain(|_, brought| *brought != file);
                out.waiting.retain(|r| !matches!(r, Request::Place { .. }));
            }
            refused.set(answer.err());
            request = out.waiting.pop_front();
        }
        outbox.borrow_mut().busy = false;
    });
}

#[function_component(RoomBar)]
fn room_bar(props: &Props) -> Html {
    let (lang, room) = (props.lang, &props.room);
    let who = use_memo(room.clone(), Who::of);
    let view = use_state(|| None::<RoomView>);
    let line = use_state(|| Line::Connecting);
    let failed = use_state(|| None::<Failed>);
    // Why the room's lesson from outside could not be opened on this page (none: not sent).
    let unopened = use_state(|| None::<Vec<String>>);
    let following = use_state(|| true);
    let attempt = use_state(|| 0u32);
    let outbox = use_mut_ref(Outbox::default);
    // Where the page was last sent to follow the room, and whether it is on its way there.
    let target = use_mut_ref(|| None::<(Place, bool)>);
    let session = props.state.read();
    let here = Place::of(&session);
    let code = room.code.clone();

    // The room's stream, opened again on "Try again".
    {
        let (view, line, code, who) = (view.clone(), line.clone(), code.clone(), (*who).clone());
        use_effect_with((code.clone(), *attempt), move |_| {
            let heard = Callback::from(move |heard: Heard| match heard {
                Heard::View(v) => {
                    view.set(Some(*v));
                    line.set(Line::Live);
                }
                Heard::Lost { closed } => line.set(if closed { Line::Alone } else { Line::Reconnecting }),
            });
            let events = Events::open(&code, &who, heard);
            move || drop(events)
        });
    }
    let send = {
        let (outbox, code, who, failed) = (outbox.clone(), code.clone(), (*who).clone(), failed.clone());
        Callback::from(move |request: Request| post(&outbox, &code, &who, request, failed.clone()))
    };
    // An attendee joins (again, harmlessly) whenever the stream is live again.
    let attending = matches!(&*who, Who::Attendee { .. });
    {
        let (send, id) = (send.clone(), who_id(&who));
        use_effect_with(attending && *line == Line::Live, move |joining| {
            if *joining {
                send.emit(Request::Join { attendee: informer_sim::room::AttendeeId(id), nickname: None });
            }
        });
    }
    if attending {
        ATTENDING.with(|a| *a.borrow_mut() = Some((code.clone(), who_id(&who), here.lesson.clone())));
    }
    // The facilitator's page tells the room each place it reaches, and first brings the file of
    // a lesson opened from outside (each version once a connection: the room keeps it for the
    // pages that follow).
    {
        let facilitating = matches!(&*who, Who::Facilitator { .. });
        let (send, outbox) = (send.clone(), outbox.clone());
        let file = library::digest_of(&here.lesson);
        // (In its language too: the report is written in the facilitator's.)
        let telling = facilitating && *line == Line::Live;
        use_effect_with((here.clone(), file, lang, telling), move |(place, file, lang, telling)| {
            if !*telling {
                outbox.borrow_mut().brought.clear();
                return;
            }
            if let (Some(file), Some(text)) = (file, library::text_of(&place.lesson)) {
                let brought = outbox.borrow_mut().brought.insert(place.lesson.clone(), file.clone());
                if brought.as_ref() != Some(file) {
                    send.emit(Request::Lesson { text: text.to_string() });
                }
            }
            send.emit(Request::Place { place: place.clone(), lang: *lang });
        });
    }
    // A following page goes where the room is.
    let room_place = view.as_ref().map(|v| (v.place.clone(), v.lesson.clone()));
    let follows = match &*who {
        Who::Facilitator { .. } => false,
        Who::Projector => true,
        Who::Attendee { .. } => *following,
    };
    {
        let (state, target, code, unopened) = (props.state.clone(), target.clone(), code.clone(), unopened.clone());
        let bringing = use_mut_ref(|| None::<String>);
        use_effect_with((room_place.clone(), follows), move |(place, follows)| {
            if let (Some((place, file)), true) = (place, *follows) {
                let there = Goal { place: place.clone(), file: file.clone() };
                go_to(&state, &code, there, &target, Bringing { file: bringing, unopened });
            }
        });
    }
    // An attendee who moves on their own has stepped away.
    {
        let (target, following, send, id) = (target.clone(), following.clone(), send.clone(), who_id(&who));
        use_effect_with(here.clone(), move |here| {
            let away = matches!(&*target.borrow(), Some((place, false)) if place != here);
            if attending && away && *following {
                following.set(false);
                send.emit(Request::Follow { attendee: informer_sim::room::AttendeeId(id), following: false });
            }
        });
    }
    // Solved challenges are counted (a solution played proves nothing of theirs).
    let solved: Vec<usize> = match &*who {
        Who::Attendee { .. } if !session.solution_played() => {
            session.challenges().iter().filter(|c| c.met).map(|c| c.index).collect()
        }
        _ => Vec::new(),
    };
    {
        let (send, who, lesson) = (send.clone(), (*who).clone(), here.lesson.clone());
        let told = use_mut_ref(Vec::<(String, usize)>::new);
        use_effect_with(solved, move |solved| {
            for &index in solved {
                if !told.borrow().contains(&(lesson.clone(), index)) {
                    told.borrow_mut().push((lesson.clone(), index));
                    let attendee = informer_sim::room::AttendeeId(who_id(&who));
                    send.emit(Request::Challenge {
                        attendee,
                        lesson: lesson.clone(),
                        challenge: index,
                        mark: ChallengeMark::Solved,
                    });
                }
            }
        });
    }
    // Once revealed, an attendee's own page shows their answer's explanation.
    let revealed_mine = match (&*who, view.as_ref().and_then(|v| v.vote.as_ref())) {
        (Who::Attendee { .. }, Some(vote)) if vote.revealed && *following => vote.yours.map(|c| (vote.key.question, c)),
        _ => None,
    };
    {
        let state = props.state.clone();
        use_effect_with(revealed_mine, move |mine| {
            if let Some((question, choice)) = *mine {
                state.dispatch(Action::Answer(question, choice));
            }
        });
    }

    let back = {
        let (following, send, who) = (following.clone(), send.clone(), (*who).clone());
        Callback::from(move |_: MouseEvent| {
            following.set(true);
            send.emit(Request::Follow { attendee: informer_sim::room::AttendeeId(who_id(&who)), following: true });
        })
    };
    let try_again = {
        let (attempt, line) = (attempt.clone(), line.clone());
        Callback::from(move |_: MouseEvent| {
            line.set(Line::Connecting);
            attempt.set(*attempt + 1);
        })
    };
    let status = match *line {
        Line::Connecting => html! { <span class="room-line">{ tr!(lang, "Connecting to the room…") }</span> },
        Line::Live => Html::default(),
        Line::Reconnecting => {
            html! { <span class="room-line" role="status">{ tr!(lang, "Reconnecting to the room…") }</span> }
        }
        Line::Alone => html! {
            <span class="room-line" role="alert">
                { match &*who {
                    Who::Facilitator { .. } => tr!(lang, "The room refused this page's key or cannot be reached: the server may have started again with a new key (open the facilitator's link it printed). Going on alone."),
                    _ => tr!(lang, "Cannot reach the room: going on alone."),
                } }
                { " " }<button type="button" class="small" onclick={try_again}>{ tr!(lang, "Try again") }</button>
            </span>
        },
    };
    let refused = match &*failed {
        Some(Failed::Refused(why)) => {
            html! { <p class="room-refused" role="alert">{ trf!(lang, "The room refused: {why}", &[("why", &why.reason(lang))]) }</p> }
        }
        Some(Failed::Unreachable) => {
            html! { <p class="room-refused" role="alert">{ tr!(lang, "The room did not answer: try again.") }</p> }
        }
        None => Html::default(),
    };
    let unopened_here = match &*unopened {
        Some(reasons) if reasons.is_empty() => html! {
            <p class="room-refused" role="alert">{ tr!(lang, "The room did not send the file of its lesson, which the facilitator opened from outside.") }</p>
        },
        Some(reasons) => html! {
            <div class="room-refused" role="alert">
                <p>{ tr!(lang, "The room's lesson, which the facilitator opened from outside, cannot be opened here:") }</p>
                <ul>{ for reasons.iter().map(|r| html! { <li>{ r }</li> }) }</ul>
            </div>
        },
        None => Html::default(),
    };
    let body = match (&*who, view.as_ref()) {
        (_, None) => Html::default(),
        (Who::Facilitator { key }, Some(v)) => facilitator(v, &session, key, &code, &send, lang),
        (Who::Projector, Some(v)) => projector(v, lang),
        (Who::Attendee { id }, Some(v)) => attendee(v, id, *following, back, &send, lang),
    };
    html! {
        <section class={classes!("room", role_class(&who))} aria-label={trf!(lang, "Room {code}", &[("code", &code)])}>
            <p class="room-head">
                <strong>{ trf!(lang, "Room {code}", &[("code", &code)]) }</strong>
                { " " }
                { match (&*who, view.as_ref()) {
                    (Who::Facilitator { .. }, Some(v)) => html! { <span class="room-count">{ trf!(lang, "{connected} connected · {following} following", &[("connected", &v.connected), ("following", &v.following)]) }</span> },
                    (Who::Projector, _) => html! { <span class="room-mark">{ tr!(lang, "The projector: following the facilitator") }</span> },
                    (Who::Attendee { .. }, Some(_)) if *following => html! { <span class="room-mark following">{ tr!(lang, "Following the room") }</span> },
                    _ => Html::default(),
                } }
                { " " }{ status }
            </p>
            { refused }
            { unopened_here }
            { body }
        </section>
    }
}

fn role_class(who: &Who) -> &'static str {
    match who {
        Who::Facilitator { .. } => "facilitating",
        Who::Projector => "projecting",
        Who::Attendee { .. } => "attending",
    }
}

fn who_id(who: &Who) -> String {
    match who {
        Who::Attendee { id } => id.clone(),
        _ => String::new(),
    }
}

/// Where the room is: its place, and the digest of its lesson's file when the facilitator
/// brought it from outside.
struct Goal {
    place: Place,
    file: Option<String>,
}

/// A lesson file from outside on its way from the room: the digest of the one being fetched
/// and checked (or that failed its checks, not asked for again), and why it failed.
struct Bringing {
    file: Rc<RefCell<Option<String>>>,
    unopened: UseStateHandle<Option<Vec<String>>>,
}

/// Takes the page to the room's place: a step of the same run is a jump; another lesson,
/// release or set of moves opens that run (its lesson's file fetched first: a bundled one from
/// beside the page, one from outside from the room, checked here as every lesson from outside
/// is). Whatever arrives late takes the page where the room is by then, not where it was.
fn go_to(
    state: &UseReducerHandle<PageState>,
    code: &str,
    goal: Goal,
    target: &Rc<RefCell<Option<(Place, bool)>>>,
    bringing: Bringing,
) {
    let Goal { place, file } = goal;
    // A file from outside this page does not have yet (or has in another version).
    let bring = file.filter(|file| library::digest_of(&place.lesson).as_ref() != Some(file));
    if bring.is_none() && bringing.unopened.is_some() {
        bringing.unopened.set(None);
    }
    if bring.is_none() && Place::of(&state.read()) == place {
        *target.borrow_mut() = Some((place, false));
        return;
    }
    *target.borrow_mut() = Some((place.clone(), true));
    let (state, target, lesson) = (state.clone(), target.clone(), place.lesson.clone());
    let arrive = move |new_file: bool| {
        let Some((place, true)) = target.borrow().clone() else { return };
        let action = match Place::of(&state.read()).same_run(&place) && !new_file {
            true => Action::JumpTo(place.step),
            false => Action::Follow(place.query()),
        };
        state.dispatch(action);
        *target.borrow_mut() = Some((Place::of(&state.read()), false));
    };
    let Some(file) = bring else {
        return match lesson.is_empty() {
            true => arrive(false),
            false => super::lessons::ensure(&lesson, move |_| arrive(false)),
        };
    };
    if bringing.file.borrow().as_ref() == Some(&file) {
        return; // on its way (or failed): what arrives goes where the room is then
    }
    *bringing.file.borrow_mut() = Some(file);
    let (code, Bringing { file: on_its_way, unopened }) = (code.to_string(), bringing);
    wasm_bindgen_futures::spawn_local(async move {
        let text = match room_client::lesson(&code, &lesson).await {
            Ok(text) => text,
            Err(_) => {
                // Not fetched: asked for again at the room's next move.
                on_its_way.borrow_mut().take();
                return unopened.set(Some(Vec::new()));
            }
        };
        super::modules::with(super::modules::Module::Opener, move || {
            let opener = super::modules::opener().expect("here when this runs");
            (opener.adopt)(
                text,
                Callback::from(move |opened: Result<String, Vec<String>>| match opened {
                    Ok(_) => {
                        unopened.set(None);
                        arrive(true);
                    }
                    Err(reasons) => unopened.set(Some(reasons)),
                }),
            );
        });
    });
}

/// A question of a lesson as told in a release, once the lesson's file is here.
fn question(key: &VoteKey) -> Option<Question> {
    informer_sim::scenario::library::find(&key.lesson)?.in_era(key.era)?.questions.get(key.question).cloned()
}

/// An attendee's part: the mark, "Back to the room", and the vote.
fn attendee(
    v: &RoomView,
    id: &str,
    following: bool,
    back: Callback<MouseEvent>,
    send: &Callback<Request>,
    lang: Lang,
) -> Html {
    let nickname = {
        let (send, id) = (send.clone(), id.to_string());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let form: web_sys::Element = e.target_unchecked_into();
            let input = form.query_selector("input").ok().flatten();
            let given = input.map(|input| input.unchecked_into::<web_sys::HtmlInputElement>().value());
            let nickname = given.map(|n| n.trim().to_string()).filter(|n| !n.is_empty());
            if nickname.is_some() {
                send.emit(Request::Join { attendee: informer_sim::room::AttendeeId(id.clone()), nickname });
            }
        })
    };
    let named = html! {
        <details class="room-nickname">
            <summary>{ tr!(lang, "A nickname (optional)") }</summary>
            <form onsubmit={nickname}>
                <label>{ tr!(lang, "Only the facilitator's device shows it:") }{ " " }
                    <input name="nickname" maxlength="32" autocomplete="nickname" />
                </label>
                { " " }<button type="submit" class="small">{ tr!(lang, "Save") }</button>
            </form>
        </details>
    };
    let away = (!following).then(|| {
        html! {
            <p class="room-away">
                { tr!(lang, "You stepped away from the room.") }{ " " }
                <button type="button" onclick={back}>{ tr!(lang, "Back to the room") }</button>
            </p>
        }
    });
    let vote = v.vote.as_ref().and_then(|vote| question(&vote.key).map(|q| (vote, q))).map(|(vote, q)| {
        let choices = q.choices.iter().enumerate().map(|(c, text)| {
            let request = Request::Vote {
                attendee: informer_sim::room::AttendeeId(id.to_string()),
                key: vote.key.clone(),
                round: vote.round,
                choice: c,
            };
            let pick = send.reform(move |_: MouseEvent| request.clone());
            let chosen = vote.yours == Some(c);
            html! {
                <button type="button" class={classes!("choice", chosen.then_some("chosen"))} aria-pressed={chosen.to_string()} disabled={!vote.open} onclick={pick}>
                    { marked(text.get(lang)) }
                </button>
            }
        });
        html! {
            <div class="room-vote" role="group" aria-label={trf!(lang, "The room's vote, round {round}", &[("round", &vote.round)])}>
                <p class="ask">{ marked(q.ask.get(lang)) }</p>
                <div class="choices">{ for choices }</div>
                <p class="room-vote-state" role="status">{ vote_state(vote, lang) }</p>
                if vote.revealed {
                    { histogram(vote, &q, lang) }
                    <p class="explain">{ marked(q.explain.get(lang)) }</p>
                }
            </div>
        }
    });
    html! { <>{ away }{ vote }{ named }</> }
}

fn vote_state(vote: &VoteView, lang: Lang) -> String {
    match (vote.open, vote.yours, vote.revealed) {
        (true, None, _) => tr!(lang, "Vote: the room decides together.").to_string(),
        (true, Some(_), _) => tr!(lang, "Your vote is in; you may change it until the vote closes.").to_string(),
        (false, _, false) => tr!(lang, "The vote is closed: wait for the facilitator.").to_string(),
        (false, _, true) => tr!(lang, "The answer is revealed.").to_string(),
    }
}

/// The projector: how many answered until Reveal, then the histogram, the answer and why.
fn projector(v: &RoomView, lang: Lang) -> Html {
    let Some(vote) = &v.vote else { return Html::default() };
    let Some(q) = question(&vote.key) else { return Html::default() };
    html! {
        <div class="room-vote projector-vote">
            <p class="ask">{ marked(q.ask.get(lang)) }</p>
            <p class="room-answered" role="status">{ answered(vote, v.connected, lang) }</p>
            if vote.revealed {
                { histogram(vote, &q, lang) }
                <p class="explain">{ marked(q.explain.get(lang)) }</p>
            }
        </div>
    }
}

fn answered(vote: &VoteView, connected: usize, lang: Lang) -> String {
    trf!(
        lang,
        "Vote {round}: {answered} of {connected} answered",
        &[("round", &vote.round), ("answered", &vote.answered), ("connected", &connected)]
    )
}

/// Each choice with its count in each round, the right one marked.
fn histogram(vote: &VoteView, q: &Question, lang: Lang) -> Html {
    let Some(rounds) = &vote.histogram else { return Html::default() };
    let most = rounds.iter().flatten().copied().max().unwrap_or(0).max(1);
    let rows = q.choices.iter().enumerate().map(|(c, text)| {
        let right = vote.answer == Some(c);
        let bars = rounds.iter().enumerate().map(|(r, counts)| {
            let n = counts.get(c).copied().unwrap_or(0);
            let width = format!("width: {}%", n * 100 / most);
            html! {
                <span class={classes!("bar", format!("round-{}", r + 1))}>
                    <span class="fill" style={width}></span>
                    <span class="count">{ trf!(lang, "vote {n}: {count}", &[("n", &(r + 1)), ("count", &n)]) }</span>
                </span>
            }
        });
        html! {
            <li class={classes!(right.then_some("right"))}>
                <span class="choice-text">{ marked(text.get(lang)) }
                    if right { { " " }<strong>{ format!("({})", tr!(lang, "the right answer")) }</strong> }
                </span>
                { for bars }
            </li>
        }
    });
    html! { <ol class="histogram" aria-label={tr!(lang, "How the room voted")}>{ for rows }</ol> }
}

/// The facilitator's part: the vote's controls and figures, the challenges, the report.
fn facilitator(
    v: &RoomView,
    session: &informer_sim::session::Session,
    key: &str,
    code: &str,
    send: &Callback<Request>,
    lang: Lang,
) -> Html {
    let asked = session.questions();
    let on_vote = v.vote.as_ref().map(|vote| vote.key.question);
    let open_buttons = asked.iter().filter(|(i, _, _)| Some(*i) != on_vote || v.vote.is_none()).map(|(i, q, _)| {
        let question = *i;
        html! {
            <button type="button" onclick={send.reform(move |_: MouseEvent| Request::OpenVote { question })}>
                { trf!(lang, "Open the vote: {ask}", &[("ask", &informer_sim::scenario::marked::plain(q.ask.get(lang)))]) }
            </button>
        }
    });
    let vote = v.vote.as_ref().and_then(|vote| question(&vote.key).map(|q| (vote, q))).map(|(vote, q)| {
        html! {
            <div class="room-vote">
                <p class="ask">{ marked(q.ask.get(lang)) }</p>
                <p class="room-answered" role="status">{ answered(vote, v.connected, lang) }</p>
                { histogram(vote, &q, lang) }
                <div class="room-actions">
                    if vote.open {
                        <button type="button" onclick={send.reform(|_: MouseEvent| Request::CloseVote)}>{ tr!(lang, "Close the vote") }</button>
                    } else if vote.round < informer_sim::room::ROUNDS {
                        <button type="button" onclick={send.reform(|_: MouseEvent| Request::VoteAgain)}>{ tr!(lang, "Vote again") }</button>
                    }
                    if !vote.revealed {
                        <button type="button" onclick={send.reform(|_: MouseEvent| Request::Reveal)}>{ tr!(lang, "Reveal") }</button>
                    }
                </div>
            </div>
        }
    });
    let challenges = v.challenges.iter().map(|c| {
        let hints: Vec<String> = c.hints.iter().map(|(h, n)| format!("{}: {n}", h + 1)).collect();
        html! {
            <li>{ trf!(lang, "{lesson}, challenge {n}: solved {solved} · hints opened {hints} · solution played {solution}", &[
                ("lesson", &c.lesson), ("n", &(c.challenge + 1)), ("solved", &c.solved), ("hints", &hints.join(", ")), ("solution", &c.solution),
            ]) }</li>
        }
    });
    html! {
        <div class="room-facilitator">
            <div class="room-actions">{ for open_buttons }</div>
            { vote.unwrap_or_default() }
            if !v.challenges.is_empty() {
                <ul class="room-challenges" aria-label={tr!(lang, "Challenges")}>{ for challenges }</ul>
            }
            <p class="room-report">
                { tr!(lang, "The report:") }{ " " }
                <a href={format!("room/{code}/report.html?key={key}")} target="_blank" rel="noopener">{ tr!(lang, "printable page") }</a>
                { " · " }
                <a href={format!("room/{code}/report.json?key={key}")} download="room-report.json">{ "JSON" }</a>
            </p>
            if !v.nicknames.is_empty() {
                <details class="room-nicknames"><summary>{ trf!(lang, "Nicknames ({n})", &[("n", &v.nicknames.len())]) }</summary>
                    <p>{ v.nicknames.join(", ") }</p>
                </details>
            }
        </div>
    }
}
