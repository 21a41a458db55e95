//! The engine's options, as one table for both protocols: CECP's `feature option=` lines,
//! `option NAME=VALUE` and `memory`/`cores`, and UCI's `option name ...` lines and
//! `setoption` all read it, so an option's name, range, default and meaning are written
//! once. A row says under which name each protocol offers it (UCI reserves a few names,
//! such as `UCI_Elo`, that GUIs and testers send), or that one protocol has no use for it.
//!
//! An option only stores its value in [`Settings`]; after a change the game manager does
//! what the change calls for (a new hash size resizes the table: the last part of this
//! file).

use super::{Game, Protocol};
use crate::cecp::{self, ErrorKind};
use crate::eval::Evaluation;
use crate::eval::nnue::{self, Network};
use crate::search::{DEFAULT_HASH_MB, MOVE_OVERHEAD};
use crate::tablebase::{Problem, Tablebases};
use crate::uci;
use std::sync::Arc;
use std::time::Duration;

/// Largest hash the `Hash` option offers (MB).
pub const MAX_HASH_MB: i64 = 65_536;
/// Most search threads the `Threads` option (and `cores`) allows.
pub const MAX_THREADS: i64 = 256;
/// The search's default hash size as the `Hash` option's spin value.
#[allow(
    clippy::cast_possible_wrap,
    reason = "a compile-time constant; the assertion below rejects a wrapped value"
)]
const DEFAULT_HASH_SPIN: i64 = DEFAULT_HASH_MB as i64;
const _: () = assert!(1 <= DEFAULT_HASH_SPIN && DEFAULT_HASH_SPIN <= MAX_HASH_MB);
/// The search's own reserve for the pipe and the GUI as the `Move Overhead` option's
/// default (milliseconds).
#[allow(
    clippy::cast_possible_truncation,
    reason = "a compile-time constant of a few milliseconds; the assertion below checks it"
)]
const DEFAULT_OVERHEAD_SPIN: i64 = MOVE_OVERHEAD.as_millis() as i64;
const _: () = assert!(0 <= DEFAULT_OVERHEAD_SPIN && DEFAULT_OVERHEAD_SPIN <= MAX_OVERHEAD_MS);
/// The largest `Move Overhead` (milliseconds): more would leave nothing of a fast clock.
const MAX_OVERHEAD_MS: i64 = 5_000;
/// `Resign` on a chess server when the operator has not set it: a bot that plays on in a
/// hopeless position for weeks annoys its opponents (centipawns).
pub const ICS_RESIGN_CENTIPAWNS: i64 = 700;

/// Where the engine publishes a summary of its search after each move on a server.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Broadcast {
    Off,
    /// `tellothers`: a whisper, seen by observers but not by the opponent.
    Whisper,
    /// `tellall`: a kibitz, seen by everyone.
    Kibitz,
}

impl Broadcast {
    /// The `Kibitz` combo's choices, in the order announced...
    const NAMES: [&'static str; 3] = ["off", "whisper", "kibitz"];
    /// ...and what each means.
    const BY_INDEX: [Broadcast; 3] = [Broadcast::Off, Broadcast::Whisper, Broadcast::Kibitz];
}

/// The values of every option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Transposition table size, MB.
    pub hash_mb: i64,
    /// Search threads.
    pub threads: i64,
    /// Resign when the score stays at or below minus this (centipawns); 0 never.
    pub resign_cp: i64,
    /// Own moves in a row below the resign threshold before resigning.
    pub resign_moves: i64,
    /// Index into `Broadcast::NAMES`.
    kibitz_choice: usize,
    /// How much worse than equal a draw is for us against a human (centipawns).
    pub contempt_cp: i64,
    /// A draw offer is accepted when our score is this far below the draw's value.
    pub draw_margin_cp: i64,
    /// Thinking lines carry seldepth, speed and tablebase hits before the PV.
    pub thinking_extras: bool,
    /// Path of a Polyglot opening book; empty for none.
    pub book: String,
    /// Book moves are played up to this game move number.
    pub book_depth: i64,
    /// 0 plays the heaviest book move; 100 chooses in proportion to the weights.
    pub book_variety: i64,
    /// Lines an analysis shows (multi-PV).
    pub multi_pv: i64,
    /// Play at the strength `elo` instead of full strength.
    pub limit_strength: bool,
    /// The playing strength asked for, in Elo (with `limit_strength`).
    pub elo: i64,
    /// A network file to evaluate with (`ferrimax train` makes one); empty for the
    /// embedded network.
    pub eval_file: String,
    /// Index into `Evaluation::NAMES`: the learned evaluation or the hand-written one.
    eval_choice: usize,
    /// Time kept back on every move for the pipe and the GUI (milliseconds).
    pub move_overhead_ms: i64,
    /// UCI's `Ponder`: the GUI may send `go ponder` (the engine needs nothing else for it).
    pub ponder: bool,
    /// UCI's `UCI_Chess960`: positions are Chess960 positions and castling is written as
    /// the king taking its rook.
    pub chess960: bool,
    /// Folders of Syzygy tablebases, separated as the system separates paths (`:` on
    /// Unix); empty for none. CECP's `egtpath syzygy` sets it too.
    pub syzygy_path: String,
    /// Positions with as many pieces as the largest tables are probed this many plies
    /// from the horizon or more.
    pub syzygy_probe_depth: i64,
    /// Wins the fifty-move rule spoils count as draws.
    pub syzygy_50_move_rule: bool,
    /// Names of the options the user set (the others follow the situation: a chess
    /// server turns resignation and whispers on).
    explicit: Vec<&'static str>,
}

impl Default for Settings {
    /// Every option at the default its table entry announces.
    fn default() -> Settings {
        let mut settings = Settings {
            hash_mb: 0,
            threads: 0,
            resign_cp: 0,
            resign_moves: 0,
            kibitz_choice: 0,
            contempt_cp: 0,
            draw_margin_cp: 0,
            thinking_extras: false,
            book: String::new(),
            book_depth: 0,
            book_variety: 0,
            multi_pv: 0,
            limit_strength: false,
            elo: 0,
            eval_file: String::new(),
            eval_choice: 0,
            move_overhead_ms: 0,
            ponder: false,
            chess960: false,
            syzygy_path: String::new(),
            syzygy_probe_depth: 0,
            syzygy_50_move_rule: false,
            explicit: Vec::new(),
        };
        for spec in OPTIONS {
            spec.reset(&mut settings);
        }
        settings
    }
}

impl Settings {
    /// The resignation threshold in force (centipawns, 0 = never): the option if the user
    /// set it, else on for a chess server and off locally.
    pub fn resign_threshold(&self, on_server: bool) -> i64 {
        match (self.is_explicit("Resign"), on_server) {
            (false, true) => ICS_RESIGN_CENTIPAWNS,
            _ => self.resign_cp,
        }
    }

    /// Where to publish search summaries: the option if the user set it, else whispers
    /// on a chess server and nothing locally.
    pub fn kibitz(&self, on_server: bool) -> Broadcast {
        match (self.is_explicit("Kibitz"), on_server) {
            (false, true) => Broadcast::Whisper,
            _ => Broadcast::BY_INDEX[self.kibitz_choice],
        }
    }

    /// Whether to evaluate by hand (`option Eval=classical`) rather than with a network.
    pub fn classical_eval(&self) -> bool {
        Evaluation::ALL[self.eval_choice] == Evaluation::Classical
    }

    /// The evaluation asked for: its kind and the network file (empty: the embedded one).
    fn evaluation(&self) -> (usize, String) {
        (self.eval_choice, self.eval_file.clone())
    }

    /// What shapes a search besides its threads: lines, level.
    fn search_shape(&self) -> (i64, bool, i64) {
        (self.multi_pv, self.limit_strength, self.elo)
    }

    /// The time kept back on every move for the pipe and the GUI.
    pub fn move_overhead(&self) -> Duration {
        Duration::from_millis(u64::try_from(self.move_overhead_ms).unwrap_or(0))
    }

    fn is_explicit(&self, name: &str) -> bool {
        self.explicit.contains(&name)
    }
}

/// The kind of an option, its bounds and where its value lives in [`Settings`].
enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
        value: fn(&mut Settings) -> &mut i64,
    },
    Check {
        default: bool,
        value: fn(&mut Settings) -> &mut bool,
    },
    /// One of `choices`; the value is its index.
    Combo {
        default: usize,
        choices: &'static [&'static str],
        value: fn(&mut Settings) -> &mut usize,
    },
    /// A file name; empty for none.
    File {
        value: fn(&mut Settings) -> &mut String,
    },
    /// Something to do now; no value.
    Button(Action),
}

/// What pressing a button does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// `Clear Hash`: forget every search result (the game's own positions stay).
    ClearHash,
}

/// The name under which a protocol offers an option, if it does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Offered {
    /// Under the row's own name.
    AsIs,
    /// Under another name, one this protocol's GUIs know.
    As(&'static str),
    /// Not at all: the protocol has its own command for it, or no use for it.
    Not,
}

/// One row of the table: the option's own name (the one CECP shows) and kind, and how UCI
/// offers it.
struct OptionSpec {
    name: &'static str,
    kind: Kind,
    /// Under which name CECP offers it.
    cecp: Offered,
    /// Under which name UCI offers it.
    uci: Offered,
}

/// Every option the engine offers, in the order GUIs list them.
const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "Hash",
        kind: Kind::Spin {
            default: DEFAULT_HASH_SPIN,
            min: 1,
            max: MAX_HASH_MB,
            value: |s| &mut s.hash_mb,
        },
        cecp: Offered::AsIs,
        uci: Offered::AsIs,
    },
    OptionSpec {
        name: "Threads",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS,
            value: |s| &mut s.threads,
        },
        cecp: Offered::AsIs,
        uci: Offered::AsIs,
    },
    OptionSpec {
        name: "Book",
        kind: Kind::File {
            value: |s| &mut s.book,
        },
        cecp: Offered::AsIs,
        uci: Offered::AsIs,
    },
    OptionSpec {
        name: "BookDepth",
        kind: Kind::Spin {
            default: 20,
            min: 0,
            max: 200,
            value: |s| &mut s.book_depth,
        },
        cecp: Offered::AsIs,
        uci: Offered::AsIs,
    },
    OptionSpec {
        name: "BookVariety",
        kind: Kind::Spin {
            default: 50,
            min: 0,
            max: 100,
            value: |s| &mut s.book_variety,
        },
        cecp: Offered::AsIs,
        uci: Offered::AsIs,
    },
    OptionSpec {
        name: "Resign",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: 10_000,
            value: |s| &mut s.resign_cp,
        },
        cecp: Offered::AsIs,
        uci: Offered::Not,
    },
    OptionSpec {
        name: "ResignMoves",
        kind: Kind::Spin {
            default: 3,
            min: 1,
            max: 100,
            value: |s| &mut s.resign_moves,
        },
        cecp: Offered::AsIs,
        uci: Offered::Not,
    },
    OptionSpec {
        name: "Contempt",
        kind: Kind::Spin {
            default: 10,
            min: -200,
            max: 200,
            value: |s| &mut s.contempt_cp,
        },
        cecp: Offered::AsIs,
        uci: Offered::AsIs,
    },
    OptionSpec {
        name: "DrawMargin",
        kind: Kind::Spin {
            default: 25,
            min: 0,
            max: 1_000,
            value: |s| &mut s.draw_margin_cp,
        },
        cecp: Offered::AsIs,
        uci: Offered::Not,
    },
    OptionSpec {
        name: "Kibitz",
        kind: Kind::Combo {
            default: 0,
            choices: &Broadcast::NAMES,
            value: |s| &mut s.kibitz_choice,
        },
        cecp: Offered::AsIs,
        uci: Offered::Not,
    },
    OptionSpec {
        name: "ThinkingExtras",
        kind: Kind::Check {
            default: true,
            value: |s| &mut s.thinking_extras,
        },
        cecp: Offered::AsIs,
        uci: Offered::Not,
    },
    OptionSpec {
        name: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_LINES,
            value: |s| &mut s.multi_pv,
        },
        cecp: Offered::AsIs,
        uci: Offered::AsIs,
    },
    OptionSpec {
        name: "LimitStrength",
        kind: Kind::Check {
            default: false,
            value: |s| &mut s.limit_strength,
        },
        cecp: Offered::AsIs,
        uci: Offered::As("UCI_LimitStrength"),
    },
    OptionSpec {
        name: "Elo",
        kind: Kind::Spin {
            default: 2000,
            min: 1000,
            max: 2800,
            value: |s| &mut s.elo,
        },
        cecp: Offered::AsIs,
        uci: Offered::As("UCI_Elo"),
    },
    OptionSpec {
        name: "Eval",
        kind: Kind::Combo {
            default: 0,
            choices: &Evaluation::NAMES,
            value: |s| &mut s.eval_choice,
        },
        cecp: Offered::AsIs,
        uci: Offered::AsIs,
    },
    OptionSpec {
        name: "EvalFile",
        kind: Kind::File {
            value: |s| &mut s.eval_file,
        },
        cecp: Offered::AsIs,
        uci: Offered::AsIs,
    },
    OptionSpec {
        // UCI's name has a space, which python-chess cannot read in a CECP option.
        name: "MoveOverhead",
        kind: Kind::Spin {
            default: DEFAULT_OVERHEAD_SPIN,
            min: 0,
            max: MAX_OVERHEAD_MS,
            value: |s| &mut s.move_overhead_ms,
        },
        cecp: Offered::AsIs,
        uci: Offered::As("Move Overhead"),
    },
    OptionSpec {
        name: "ClearHash",
        kind: Kind::Button(Action::ClearHash),
        cecp: Offered::AsIs,
        uci: Offered::As("Clear Hash"),
    },
    OptionSpec {
        name: "Ponder",
        kind: Kind::Check {
            default: false,
            value: |s| &mut s.ponder,
        },
        // CECP's `hard` and `easy` say it.
        cecp: Offered::Not,
        uci: Offered::AsIs,
    },
    OptionSpec {
        name: "SyzygyPath",
        kind: Kind::File {
            value: |s| &mut s.syzygy_path,
        },
        // CECP's `egtpath syzygy` says it.
        cecp: Offered::Not,
        uci: Offered::AsIs,
    },
    OptionSpec {
        name: "SyzygyProbeDepth",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 100,
            value: |s| &mut s.syzygy_probe_depth,
        },
        cecp: Offered::AsIs,
        uci: Offered::AsIs,
    },
    OptionSpec {
        name: "Syzygy50MoveRule",
        kind: Kind::Check {
            default: true,
            value: |s| &mut s.syzygy_50_move_rule,
        },
        cecp: Offered::AsIs,
        uci: Offered::AsIs,
    },
    OptionSpec {
        name: "UCI_Chess960",
        kind: Kind::Check {
            default: false,
            value: |s| &mut s.chess960,
        },
        // CECP's `variant fischerandom` says it.
        cecp: Offered::Not,
        uci: Offered::AsIs,
    },
];

/// The most lines an analysis shows at once (`MultiPV`).
const MAX_LINES: i64 = 64;

/// Why an option could not be set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown,
    /// The value is not of the option's kind (a word for a number, none for a spin).
    BadValue,
}

impl OptionSpec {
    fn reset(&self, settings: &mut Settings) {
        match self.kind {
            Kind::Spin { default, value, .. } => *value(settings) = default,
            Kind::Check { default, value } => *value(settings) = default,
            Kind::Combo { default, value, .. } => *value(settings) = default,
            Kind::File { value } => value(settings).clear(),
            Kind::Button(_) => {}
        }
    }

    /// The name `protocol` offers this option under, if it offers it.
    fn offered_as(&self, protocol: Protocol) -> Option<&'static str> {
        let offered = match protocol {
            Protocol::Cecp => self.cecp,
            Protocol::Uci => self.uci,
        };
        match offered {
            Offered::AsIs => Some(self.name),
            Offered::As(name) => Some(name),
            Offered::Not => None,
        }
    }

    /// Sets the option from the text after `=` (CECP) or `value` (UCI); a button's
    /// action is returned, to be done by the caller. Numbers outside the range are
    /// clamped into it, like the protocol's own `memory` command: a GUI that offers a
    /// larger value than ours gets the nearest one.
    fn set(
        &self,
        settings: &mut Settings,
        text: Option<&str>,
    ) -> Result<Option<Action>, OptionError> {
        if let Kind::Button(action) = self.kind {
            return Ok(Some(action));
        }
        let text = text.map(str::trim).ok_or(OptionError::BadValue)?;
        match self.kind {
            Kind::Spin {
                min, max, value, ..
            } => {
                let number = parse_number(text).ok_or(OptionError::BadValue)?;
                *value(settings) = number.clamp(min, max);
            }
            Kind::Check { value, .. } => {
                *value(settings) = match text {
                    "1" | "true" => true,
                    "0" | "false" => false,
                    _ => return Err(OptionError::BadValue),
                };
            }
            Kind::Combo { choices, value, .. } => {
                let index = choices.iter().position(|c| c.eq_ignore_ascii_case(text));
                *value(settings) = index.ok_or(OptionError::BadValue)?;
            }
            Kind::File { value } => *value(settings) = text.to_string(),
            Kind::Button(_) => {}
        }
        if !settings.explicit.contains(&self.name) {
            settings.explicit.push(self.name);
        }
        Ok(None)
    }

    /// The option as CECP's `feature option="..."` shows it, if CECP offers it.
    fn cecp_announcement(&self) -> Option<cecp::EngineOption> {
        use cecp::OptionKind;
        let kind = match self.kind {
            Kind::Spin {
                default, min, max, ..
            } => OptionKind::Spin { default, min, max },
            Kind::Check { default, .. } => OptionKind::Check(default),
            Kind::Combo {
                default, choices, ..
            } => OptionKind::Combo {
                choices: choices.iter().map(|c| c.to_string()).collect(),
                default,
            },
            Kind::File { .. } => OptionKind::File(String::new()),
            Kind::Button(_) => OptionKind::Button,
        };
        Some(cecp::EngineOption {
            name: self.offered_as(Protocol::Cecp)?.to_string(),
            kind,
        })
    }

    /// The option as UCI's `option name ...` shows it, if UCI offers it.
    fn uci_announcement(&self) -> Option<uci::EngineOption> {
        use uci::OptionKind;
        let kind = match self.kind {
            Kind::Spin {
                default, min, max, ..
            } => OptionKind::Spin { default, min, max },
            Kind::Check { default, .. } => OptionKind::Check(default),
            Kind::Combo {
                default, choices, ..
            } => OptionKind::Combo {
                choices: choices.iter().map(|c| c.to_string()).collect(),
                default,
            },
            Kind::File { .. } => OptionKind::Text(String::new()),
            Kind::Button(_) => OptionKind::Button,
        };
        Some(uci::EngineOption {
            name: self.offered_as(Protocol::Uci)?.to_string(),
            kind,
        })
    }
}

/// A whole number, saturated to the `i64` range when it has too many digits.
fn parse_number(text: &str) -> Option<i64> {
    let text = text.trim();
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits.bytes().fold(0i64, |n, digit| {
        n.saturating_mul(10).saturating_add(i64::from(digit - b'0'))
    });
    Some(if negative { -magnitude } else { magnitude })
}

/// The option `protocol` offers as `name`. CECP's names match exactly; UCI's in any
/// case, as the UCI specification asks (`setoption name hash value 32`).
fn find(protocol: Protocol, name: &str) -> Result<&'static OptionSpec, OptionError> {
    let matches = |offered: &str| match protocol {
        Protocol::Cecp => offered == name,
        Protocol::Uci => offered.eq_ignore_ascii_case(name),
    };
    OPTIONS
        .iter()
        .find(|spec| spec.offered_as(protocol).is_some_and(matches))
        .ok_or(OptionError::Unknown)
}

/// CECP's `option NAME=VALUE` (or `option NAME` for a button), or UCI's `setoption name
/// NAME [value VALUE]`, as `protocol` names the option; a button's action is returned.
pub fn set_as(
    settings: &mut Settings,
    protocol: Protocol,
    name: &str,
    value: Option<&str>,
) -> Result<Option<Action>, OptionError> {
    find(protocol, name)?.set(settings, value)
}

/// CECP's `option NAME=VALUE`.
pub fn set(
    settings: &mut Settings,
    name: &str,
    value: Option<&str>,
) -> Result<Option<Action>, OptionError> {
    set_as(settings, Protocol::Cecp, name, value)
}

/// `memory MB`: the GUI's total memory budget, all of it for the hash table.
pub fn set_memory(settings: &mut Settings, megabytes: u64) {
    let text = megabytes.to_string();
    set(settings, "Hash", Some(&text)).expect("Hash is a spin option");
}

/// `cores N`: the most threads the GUI lets the engine use, all of them for the search.
pub fn set_cores(settings: &mut Settings, cores: u32) {
    let text = cores.to_string();
    set(settings, "Threads", Some(&text)).expect("Threads is a spin option");
}

/// The options as announced in `feature option="..."`.
pub fn announcements() -> Vec<cecp::EngineOption> {
    OPTIONS
        .iter()
        .filter_map(OptionSpec::cecp_announcement)
        .collect()
}

/// The options as `uci` announces them.
pub fn uci_announcements() -> Vec<uci::EngineOption> {
    OPTIONS
        .iter()
        .filter_map(OptionSpec::uci_announcement)
        .collect()
}

// ------------------------------------------------------------- applying a change

impl Game {
    /// CECP's `option NAME[=VALUE]`.
    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) {
        if self.apply_option(Protocol::Cecp, name, value).is_err() {
            let line = match value {
                Some(v) => format!("option {name}={v}"),
                None => format!("option {name}"),
            };
            self.error(ErrorKind::BadArgument, &line);
        }
    }

    /// Sets the option `protocol` calls `name` and does what the change calls for; an
    /// unknown name or a bad value changes nothing.
    pub(super) fn apply_option(
        &mut self,
        protocol: Protocol,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), OptionError> {
        let mut settings = self.settings.clone();
        match set_as(&mut settings, protocol, name, value)? {
            Some(Action::ClearHash) => self.clear_hash(),
            None => self.change_settings(|s| *s = settings),
        }
        Ok(())
    }

    /// `Clear Hash`: every search result is forgotten (the game's positions stay). A
    /// search that owes the GUI an answer goes on with the emptied table (its entries are
    /// each checked against their key, so a half-cleared one is never misread); another
    /// search starts over.
    fn clear_hash(&mut self) {
        if self.answer_pending() {
            self.forget_search_results();
            return;
        }
        self.abort_search();
        self.forget_search_results();
        self.refresh_analysis();
    }

    /// Forgets what the searches learnt: the table's results (the game's positions stay)
    /// and the tables each search hands on to the next.
    pub(super) fn forget_search_results(&self) {
        self.history.table().clear_search_results();
        self.search_memory.clear();
    }

    /// Applies a change of the settings and does what it calls for.
    pub(super) fn change_settings(&mut self, change: impl FnOnce(&mut Settings)) {
        let old_tables = self.settings.syzygy_path.clone();
        let old_book = self.settings.book.clone();
        let old_evaluation = self.settings.evaluation();
        let old_threads = self.settings.threads;
        let old_search = self.settings.search_shape();
        change(&mut self.settings);
        log::debug!("settings now {:?}", self.settings);
        if self.settings.hash_mb != self.table_made_for_mb {
            self.resize_hash();
        } else if self.settings.threads != old_threads || self.settings.search_shape() != old_search
        {
            // A search keeps the threads, lines and level it started with: an analysis
            // starts over with the new ones, a game's next search will use them.
            self.refresh_analysis();
        }
        if self.settings.book != old_book {
            self.load_book();
        }
        if self.settings.syzygy_path != old_tables {
            self.load_tablebases();
        }
        if self.settings.evaluation() != old_evaluation {
            self.load_network(old_evaluation.1);
            self.refresh_analysis();
        }
    }

    /// Sets the evaluation the options ask for: none for the hand-written one, else the
    /// network `EvalFile` names, or the embedded one. A file that cannot be read or is no
    /// network is reported, and the network stays as it was (the embedded one if there
    /// was none), and so does `EvalFile` (`previous_file`): a later switch back from the
    /// hand-written evaluation does not try the bad file again.
    fn load_network(&mut self, previous_file: String) {
        if self.settings.classical_eval() {
            self.network = None;
            return;
        }
        let path = self.settings.eval_file.clone();
        if path.is_empty() {
            self.network = Some(nnue::embedded());
            return;
        }
        match Network::read(&path) {
            Ok(network) => self.network = Some(Arc::new(network)),
            Err(why) => {
                log::warn!("network {path}: {why}");
                self.network.get_or_insert_with(nnue::embedded);
                self.settings.eval_file = previous_file;
                self.tell_user_error(format!("Cannot use network {path}: {why}"));
            }
        }
    }

    /// Opens the tablebases `SyzygyPath` (or `egtpath syzygy`) names, or none for an
    /// empty path. What could not be used is told to the user, and the engine plays on
    /// with the tables that could (or none). The next search uses them.
    fn load_tablebases(&mut self) {
        let path = self.settings.syzygy_path.clone();
        self.tablebases = None;
        if path.trim().is_empty() {
            return;
        }
        match Tablebases::open(&path) {
            Ok(opened) => {
                log::info!(
                    "{} Syzygy table files, up to {} pieces",
                    opened.tables.files(),
                    opened.tables.max_pieces()
                );
                self.report_tablebase_problems("Syzygy", &opened.problems);
                self.tablebases = Some(Arc::new(opened.tables));
            }
            Err(problems) => self.report_tablebase_problems("Syzygy: no tables used", &problems),
        }
    }

    /// Tells the user what of a tablebase path was left out. In CECP a folder that is
    /// not there alone is only a debug note: XBoard sends its default path (Debian's
    /// `/EGT/Syzygy`) whether the user has tables or not, and `tellusererror` opens a
    /// message box. A UCI `info string` opens none, so UCI is told everything.
    fn report_tablebase_problems(&self, heading: &str, problems: &[Problem]) {
        if problems.is_empty() {
            return;
        }
        let text = problems
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ");
        let text = format!("{heading}: {text}");
        if self.protocol == Protocol::Cecp && problems.iter().all(Problem::is_missing_folder) {
            // `debug` logs it too; XBoard reads the engine's stderr as its output, so
            // nothing is logged at the level shown by default.
            self.debug(text);
        } else {
            self.tell_user_error(text);
        }
    }

    /// A new table size. While a search owes the GUI an answer the change waits for the
    /// next search (stopping would lose the move); analysis restarts with the new table.
    fn resize_hash(&mut self) {
        if self.answer_pending() {
            return;
        }
        self.abort_search();
        self.apply_pending_table();
        self.refresh_analysis();
    }

    /// Makes the table the `Hash` setting asks for, if it is not made yet; the game's
    /// positions move into it.
    pub(super) fn apply_pending_table(&mut self) {
        let wanted = self.settings.hash_mb;
        if wanted == self.table_made_for_mb {
            return;
        }
        self.table_made_for_mb = wanted;
        let requested = hash_bytes_mb(wanted);
        match self.history.table().resized_to_fit(requested) {
            Ok((table, obtained)) => {
                self.history.replace_table(Arc::new(table));
                if obtained < requested {
                    self.tell_user_error(format!(
                        "Hash reduced to {obtained} MB: {requested} MB cannot be allocated"
                    ));
                }
            }
            Err(error) => {
                let kept = self.history.table().megabytes();
                log::warn!("hash table kept: {error}");
                self.tell_user_error(format!(
                    "Hash kept at {kept} MB: {requested} MB cannot be allocated"
                ));
            }
        }
    }
}

/// The `Hash` setting as a table size.
pub fn hash_bytes_mb(setting: i64) -> usize {
    usize::try_from(setting.max(1)).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_announced_ones() {
        let settings = Settings::default();
        assert_eq!(settings.hash_mb, DEFAULT_HASH_SPIN);
        let hash = &announcements()[0];
        assert_eq!(hash.to_string(), "Hash -spin 64 1 65536");
    }

    /// The value of option `name` in `settings`, as text (for the table below).
    fn shown(settings: &Settings, name: &str) -> String {
        match name {
            "Hash" => settings.hash_mb.to_string(),
            "Threads" => settings.threads.to_string(),
            "Resign" => settings.resign_cp.to_string(),
            "Kibitz" => format!("{:?}", settings.kibitz(false)),
            "ThinkingExtras" => settings.thinking_extras.to_string(),
            "Elo" => settings.elo.to_string(),
            "MultiPV" => settings.multi_pv.to_string(),
            "LimitStrength" => settings.limit_strength.to_string(),
            "Book" => settings.book.clone(),
            "MoveOverhead" => settings.move_overhead_ms.to_string(),
            _ => "?".to_string(),
        }
    }

    #[test]
    fn values_are_clamped_or_refused_the_same_way_on_every_path() {
        let bad = Err(OptionError::BadValue);
        let cases: &[(&str, Option<&str>, Result<&str, OptionError>)] = &[
            ("Hash", Some("128"), Ok("128")),
            ("Hash", Some(" 32 "), Ok("32")),
            ("Hash", Some("0"), Ok("1")),
            ("Hash", Some("-5"), Ok("1")),
            ("Hash", Some("99999999"), Ok("65536")),
            ("Hash", Some("999999999999999999999999"), Ok("65536")),
            ("Hash", Some("lots"), bad),
            ("Hash", Some(""), bad),
            ("Hash", None, bad),
            ("hash", Some("8"), Err(OptionError::Unknown)),
            ("Threads", Some("2"), Ok("2")),
            ("Threads", Some("0"), Ok("1")),
            ("Threads", Some("100000"), Ok("256")),
            ("Resign", Some("-3"), Ok("0")),
            ("Kibitz", Some("kibitz"), Ok("Kibitz")),
            ("Kibitz", Some("Whisper"), Ok("Whisper")),
            ("Kibitz", Some("shout"), bad),
            ("ThinkingExtras", Some("0"), Ok("false")),
            ("Elo", Some("99999"), Ok("2800")),
            ("Elo", Some("-5"), Ok("1000")),
            ("MultiPV", Some("0"), Ok("1")),
            ("MultiPV", Some("1000"), Ok("64")),
            ("LimitStrength", Some("1"), Ok("true")),
            ("ThinkingExtras", Some("maybe"), bad),
            ("Book", Some(" /tmp/my book.bin "), Ok("/tmp/my book.bin")),
            ("Book", Some(""), Ok("")),
            ("MoveOverhead", Some("30"), Ok("30")),
            ("MoveOverhead", Some("-1"), Ok("0")),
            ("MoveOverhead", Some("86400000"), Ok("5000")),
            ("Move Overhead", Some("30"), Err(OptionError::Unknown)),
        ];
        for (name, value, expected) in cases {
            let mut settings = Settings::default();
            let got = set(&mut settings, name, *value).map(|_| shown(&settings, name));
            assert_eq!(
                got.as_deref(),
                expected.as_deref(),
                "option {name}={value:?}"
            );
        }
        let mut settings = Settings::default();
        set_memory(&mut settings, u64::MAX);
        assert_eq!(settings.hash_mb, MAX_HASH_MB);
        set_memory(&mut settings, 0);
        assert_eq!(settings.hash_mb, 1);
        set_cores(&mut settings, u32::MAX);
        assert_eq!(settings.threads, MAX_THREADS);
        set_cores(&mut settings, 0);
        assert_eq!(settings.threads, 1);
    }

    /// Each protocol finds an option by its own name for it (UCI in any case), and not
    /// by the other's; a button is pressed, not set.
    #[test]
    fn each_protocol_names_the_options_its_own_way() {
        type Case = (
            Protocol,
            &'static str,
            Option<&'static str>,
            Result<Option<Action>, OptionError>,
        );
        let cases: &[Case] = &[
            (Protocol::Uci, "UCI_Elo", Some("1500"), Ok(None)),
            (Protocol::Uci, "uci_elo", Some("1500"), Ok(None)),
            (Protocol::Uci, "Move Overhead", Some("20"), Ok(None)),
            (
                Protocol::Uci,
                "Clear Hash",
                None,
                Ok(Some(Action::ClearHash)),
            ),
            (Protocol::Uci, "Ponder", Some("true"), Ok(None)),
            (Protocol::Uci, "UCI_Chess960", Some("true"), Ok(None)),
            (
                Protocol::Uci,
                "Elo",
                Some("1500"),
                Err(OptionError::Unknown),
            ),
            (
                Protocol::Uci,
                "Resign",
                Some("500"),
                Err(OptionError::Unknown),
            ),
            (Protocol::Cecp, "Elo", Some("1500"), Ok(None)),
            (
                Protocol::Cecp,
                "ClearHash",
                None,
                Ok(Some(Action::ClearHash)),
            ),
            (
                Protocol::Cecp,
                "UCI_Elo",
                Some("1500"),
                Err(OptionError::Unknown),
            ),
            (
                Protocol::Cecp,
                "Ponder",
                Some("1"),
                Err(OptionError::Unknown),
            ),
            (
                Protocol::Cecp,
                "elo",
                Some("1500"),
                Err(OptionError::Unknown),
            ),
        ];
        for (protocol, name, value, expected) in cases {
            let mut settings = Settings::default();
            let got = set_as(&mut settings, *protocol, name, *value);
            assert_eq!(&got, expected, "{protocol:?} {name}");
        }
        // The same row underneath: UCI_Elo is Elo.
        let mut settings = Settings::default();
        set_as(&mut settings, Protocol::Uci, "UCI_Elo", Some("1500")).unwrap();
        assert_eq!(settings.elo, 1500);
        // Every name a protocol offers is found again under that name.
        for (protocol, names) in [
            (
                Protocol::Cecp,
                announcements()
                    .into_iter()
                    .map(|o| o.name)
                    .collect::<Vec<_>>(),
            ),
            (
                Protocol::Uci,
                uci_announcements().into_iter().map(|o| o.name).collect(),
            ),
        ] {
            for name in names {
                assert!(find(protocol, &name).is_ok(), "{protocol:?} {name}");
            }
        }
    }

    #[test]
    fn a_server_turns_resignation_and_whispers_on_unless_the_user_chose() {
        let settings = Settings::default();
        assert_eq!(settings.resign_threshold(false), 0);
        assert_eq!(settings.resign_threshold(true), ICS_RESIGN_CENTIPAWNS);
        assert_eq!(settings.kibitz(false), Broadcast::Off);
        assert_eq!(settings.kibitz(true), Broadcast::Whisper);
        let mut chosen = Settings::default();
        set(&mut chosen, "Resign", Some("0")).unwrap();
        set(&mut chosen, "Kibitz", Some("off")).unwrap();
        assert_eq!(chosen.resign_threshold(true), 0);
        assert_eq!(chosen.kibitz(true), Broadcast::Off);
    }
}
