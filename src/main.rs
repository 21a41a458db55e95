#[allow(dead_code)]
mod search;

fn main() {}
