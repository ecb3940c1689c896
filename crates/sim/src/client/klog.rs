//! The reflector's log lines as each release prints them (klog's text format), semantics §1.3.
//!
//! The reflector records what happened as a [`LogEvent`]; the line is rendered from it with
//! the era's wording, level, verbosity and `reflector.go` line number, all read at the tags:
//!
//! | event | v0.30.14 | v0.33.13 | v0.37.2 |
//! |---|---|---|---|
//! | `failed to list` (W) | 547 | — | — |
//! | `Failed to watch` (E, `DefaultWatchErrorHandler`) | 150 | 200 | 227 |
//! | `Caches populated` (I, V2) | 359 | 430 | 507 |
//! | expired watch closed (I, V4) | 457 | 543 | 651 |
//! | watch ended with another error (W / I) | 470 | 556 | 664 |
//! | `Watch close` (I, V4) | 808 | 946 | 1093 |
//! | watch-list fell back to LIST (I, V4) | — | — | 491 |
//!
//! The reflector's default name is the first caller outside `client-go/tools/cache/`; in a
//! program built from Go modules the path `…/client-go@vX/tools/cache/` does not match that,
//! so the name is the line in `NewReflectorWithOptions` that asks for it (232, 285, 343),
//! trimmed to `pkg/mod/…` (apimachinery `naming.GetNameFromCallsite`). That is what an
//! operator built with controller-runtime prints.

use crate::era::{Era, LogStyle};
use crate::kernel::Millis;

/// What the reflector logs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogEvent {
    /// `list` failed (v0.30 logs it before returning the error).
    FailedToList { err: String },
    /// `ListAndWatch` returned an error: `DefaultWatchErrorHandler`'s default branch.
    FailedToWatch { err: String },
    /// The first list (or watch-list) was stored.
    CachesPopulated,
    /// The watch ended with 410 Expired.
    WatchClosed { err: String },
    /// The watch ended with any other error (a very short watch among them).
    WatchEnded { err: String },
    /// The server closed the watch normally.
    WatchClose { items: u64 },
    /// The watch-list request failed; the reflector lists instead.
    WatchListFallback { err: String },
}

/// One log line: the event, who logged it, when, in which release.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    pub time_ms: Millis,
    pub era: Era,
    /// The reflector's name.
    pub reflector: String,
    /// `*v1.ConfigMap`.
    pub type_description: String,
    pub event: LogEvent,
}

/// The default reflector name in a module build of the era's client-go.
pub fn module_reflector_name(era: Era) -> String {
    let line = match era {
        Era::V1_30 => 232,
        Era::V1_33 => 285,
        Era::V1_37 => 343,
    };
    format!("pkg/mod/k8s.io/client-go@{}/tools/cache/reflector.go:{line}", era.client_go())
}

/// `reflector.go` line numbers of one release, in the order of [`LogEvent`]'s variants.
fn line(era: Era, event: &LogEvent) -> u32 {
    let table: [u32; 7] = match era {
        Era::V1_30 => [547, 150, 359, 457, 470, 808, 0],
        Era::V1_33 => [0, 200, 430, 543, 556, 946, 0],
        Era::V1_37 => [0, 227, 507, 651, 664, 1093, 491],
    };
    table[match event {
        LogEvent::FailedToList { .. } => 0,
        LogEvent::FailedToWatch { .. } => 1,
        LogEvent::CachesPopulated => 2,
        LogEvent::WatchClosed { .. } => 3,
        LogEvent::WatchEnded { .. } => 4,
        LogEvent::WatchClose { .. } => 5,
        LogEvent::WatchListFallback { .. } => 6,
    }]
}

/// Go's `strconv.Quote` for the text klog puts in a key's value.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl LogLine {
    /// `I`, `W` or `E`.
    pub fn level(&self) -> char {
        match (&self.event, self.era.log_style()) {
            (LogEvent::FailedToWatch { .. }, _) => 'E',
            (LogEvent::FailedToList { .. } | LogEvent::WatchEnded { .. }, LogStyle::Printf) => 'W',
            _ => 'I',
        }
    }

    /// klog verbosity (`-v`) at which the line shows.
    pub fn verbosity(&self) -> u8 {
        match self.event {
            LogEvent::CachesPopulated => 2,
            LogEvent::WatchClosed { .. } | LogEvent::WatchClose { .. } | LogEvent::WatchListFallback { .. } => 4,
            _ => 0,
        }
    }

    /// `reflector.go:NNN`.
    pub fn source(&self) -> String {
        format!("reflector.go:{}", line(self.era, &self.event))
    }

    /// The text after the header.
    pub fn message(&self) -> String {
        let (name, typ) = (&self.reflector, &self.type_description);
        // Printed by v0.30 only; later releases return the error without a line of their own.
        let failed_to_list = |err: &str| format!("{name}: failed to list {typ}: {err}");
        // Logged only where the watch-list client is on (v0.37 here).
        let fallback = |err: &str| {
            format!("\"Data couldn't be fetched in watchlist mode. Falling back to regular list. This is expected if watchlist is not supported or disabled in kube-apiserver.\" err={}", go_quote(err))
        };
        match self.era.log_style() {
            LogStyle::Printf => match &self.event {
                LogEvent::FailedToList { err } => failed_to_list(err),
                LogEvent::FailedToWatch { err } => format!("{name}: Failed to watch {typ}: {err}"),
                LogEvent::CachesPopulated => format!("Caches populated for {typ} from {name}"),
                LogEvent::WatchClosed { err } => format!("{name}: watch of {typ} closed with: {err}"),
                LogEvent::WatchEnded { err } => format!("{name}: watch of {typ} ended with: {err}"),
                LogEvent::WatchClose { items } => format!("{name}: Watch close - {typ} total {items} items received"),
                LogEvent::WatchListFallback { err } => fallback(err),
            },
            LogStyle::Structured => {
                let (r, t) = (go_quote(name), go_quote(typ));
                match &self.event {
                    LogEvent::FailedToList { err } => failed_to_list(err),
                    LogEvent::FailedToWatch { err } => format!(
                        "\"Failed to watch\" err={} logger=\"UnhandledError\" reflector={r} type={t}",
                        go_quote(err)
                    ),
                    LogEvent::CachesPopulated => format!("\"Caches populated\" type={t} reflector={r}"),
                    LogEvent::WatchClosed { err } => {
                        format!("\"Watch closed\" reflector={r} type={t} err={}", go_quote(err))
                    }
                    LogEvent::WatchEnded { err } => {
                        format!("\"Warning: watch ended with error\" reflector={r} type={t} err={}", go_quote(err))
                    }
                    LogEvent::WatchClose { items } => {
                        format!("\"Watch close\" reflector={r} type={t} totalItems={items}")
                    }
                    LogEvent::WatchListFallback { err } => fallback(err),
                }
            }
        }
    }
}

impl std::fmt::Display for LogLine {
    /// `E0101 00:00:01.200000       1 reflector.go:150] <message>`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let stamp = crate::cluster::api_object::timestamp(self.time_ms);
        let (date, time) = (&stamp[5..10], &stamp[11..19]);
        let micros = (self.time_ms % 1000) * 1000;
        write!(
            f,
            "{}{} {}.{:06}       1 {}] {}",
            self.level(),
            date.replace('-', ""),
            time,
            micros,
            self.source(),
            self.message()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FORBIDDEN: &str = r#"configmaps is forbidden: User "system:serviceaccount:my-ns:my-controller" cannot list resource "configmaps" in API group "" at the cluster scope"#;

    fn line(era: Era, event: LogEvent) -> String {
        LogLine {
            time_ms: 1_200,
            era,
            reflector: "k8s.io/client-go/informers/factory.go:160".into(),
            type_description: "*v1.ConfigMap".into(),
            event,
        }
        .to_string()
    }

    #[test]
    fn semantics_1_3_v0_30_prints_the_printf_pair() {
        let err = format!("failed to list *v1.ConfigMap: {FORBIDDEN}");
        assert_eq!(
            line(Era::V1_30, LogEvent::FailedToWatch { err }),
            format!("E0101 00:00:01.200000       1 reflector.go:150] k8s.io/client-go/informers/factory.go:160: Failed to watch *v1.ConfigMap: failed to list *v1.ConfigMap: {FORBIDDEN}")
        );
    }

    #[test]
    fn semantics_1_3_v0_33_prints_one_structured_line_with_quoted_values() {
        let err = format!("failed to list *v1.ConfigMap: {FORBIDDEN}");
        assert_eq!(
            line(Era::V1_33, LogEvent::FailedToWatch { err }),
            r#"E0101 00:00:01.200000       1 reflector.go:200] "Failed to watch" err="failed to list *v1.ConfigMap: configmaps is forbidden: User \"system:serviceaccount:my-ns:my-controller\" cannot list resource \"configmaps\" in API group \"\" at the cluster scope" logger="UnhandledError" reflector="k8s.io/client-go/informers/factory.go:160" type="*v1.ConfigMap""#
        );
        assert!(line(Era::V1_37, LogEvent::CachesPopulated).contains("reflector.go:507] \"Caches populated\""));
    }

    #[test]
    fn semantics_1_3_a_very_short_watch_is_a_warning_never_an_error() {
        let err = "very short watch: x: Unexpected watch close - watch lasted less than a second and no items received"
            .to_string();
        assert!(line(Era::V1_30, LogEvent::WatchEnded { err: err.clone() }).starts_with("W0101 00:00:01.200000       1 reflector.go:470] k8s.io/client-go/informers/factory.go:160: watch of *v1.ConfigMap ended with: very short watch"));
        assert!(line(Era::V1_37, LogEvent::WatchEnded { err })
            .starts_with("I0101 00:00:01.200000       1 reflector.go:664] \"Warning: watch ended with error\""));
    }

    #[test]
    fn module_builds_name_the_reflector_after_client_go_itself() {
        assert_eq!(module_reflector_name(Era::V1_37), "pkg/mod/k8s.io/client-go@v0.37.2/tools/cache/reflector.go:343");
    }
}
