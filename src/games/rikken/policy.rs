pub fn simple_policy(_: &serde_json::Value, _: &str, legal: &[String]) -> String {
    legal[0].clone()
}
