//! The official SDK's `count`: ../ours on the official SDK.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use subako_function_sdk::{ToolError, function, package};

#[derive(Deserialize, JsonSchema)]
struct CountInput {
    /// The text to count.
    #[schemars(length(min = 1, max = 1000000))]
    text: String,
}

#[derive(Serialize, JsonSchema)]
struct Counted {
    chars: u64,
}

/// Count the characters of text.
#[function]
fn count(input: CountInput) -> Result<Counted, ToolError> {
    Ok(Counted { chars: input.text.chars().count() as u64 })
}

package! {
    name: "validated-count",
    description: "Counts characters.",
    functions: [count],
}
