// Not used until the game manager lands; keeps dead-code lints quiet until then.
#[allow(dead_code, unused_imports)]
mod cecp;

fn main() {}
