pub mod kpk;
pub mod pawnrace;
