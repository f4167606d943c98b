use crate::game::Event;
pub fn render(events: &[Event], _: usize) -> Vec<String> {
    events.iter().map(|e| e.line()).collect()
}
