//! The Universal Chess Interface as text: GUI lines in, engine lines out.
//!
//! The engine's second protocol, beside CECP (`crate::cecp`): chosen when the first
//! command is `uci`. Like `cecp`, this module knows no game state and no chess rules, so
//! it can be tested line by line: [`parse`] turns input into [`Command`]s, and
//! [`Message`] renders every line the engine may print. The game manager decides what to
//! do with them, with the same search, options, book and clock policy as for CECP.

mod command;
mod message;
mod parse;

pub use command::{Command, Go, ParseError, Start};
pub use message::{AUTHOR, EngineOption, Info, Message, OptionKind, Score, ScoreBound};
pub use parse::parse;
