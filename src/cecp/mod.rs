//! The XBoard/WinBoard protocol (CECP v2) as text: GUI lines in, engine lines out.
//!
//! This module knows no game state and no chess rules, so it can be tested line by line:
//! [`parse`] and [`parse_edit`] turn input into [`Command`]s and [`EditCommand`]s, and
//! [`Message`] renders every line the engine may print. Deciding what to do with them is
//! the game manager's job.

mod command;
mod message;
mod parse;

pub use command::{Command, EditCommand, GameResult, Level, MoveSet, ParseError};
pub use message::{
    EngineOption, ErrorKind, Feature, MATE_SCORE_BASE, MAX_ORDINARY_SCORE, Message, OptionKind,
    Score, Stat01, Thinking, ThinkingExtras,
};
pub use parse::{parse, parse_edit};
