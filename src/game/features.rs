//! What the engine tells the GUI at the handshake (`protover 2`): its features, then its
//! options from the options table, between `done=0` and `done=1`.

use super::{ENGINE_NAME, Game, options};
use crate::cecp::{Feature, Message};

impl Game {
    /// The feature lines: `done=0` first, so the GUI waits for the rest.
    pub(super) fn announce_features(&self) {
        self.send(Message::Feature(vec![Feature::Done(false)]));
        self.send(Message::Feature(vec![
            Feature::MyName(ENGINE_NAME.to_string()),
            Feature::Variants("normal,fischerandom".to_string()),
            Feature::Ping(true),
            Feature::SetBoard(true),
            Feature::PlayOther(true),
            Feature::San(false),
            Feature::UserMove(true),
            Feature::Time(true),
            Feature::Draw(true),
            Feature::SigInt(false),
            Feature::Reuse(true),
            Feature::Analyze(true),
            Feature::Colors(false),
            Feature::Ics(true),
            Feature::Name(true),
            Feature::Pause(false),
            Feature::Nps(true),
            Feature::Debug(true),
            Feature::Memory(true),
            Feature::Smp(true),
            Feature::Exclude(true),
            Feature::Egt("syzygy".to_string()),
        ]));
        let options = options::announcements().into_iter().map(Feature::Option);
        self.send(Message::Feature(options.collect()));
        self.send(Message::Feature(vec![Feature::Done(true)]));
    }
}
