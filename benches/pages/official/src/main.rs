//! The official SDK's `summary`: ../ours on the official SDK.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use subako_function_sdk::http::{self, Request, ResponseBody};
use subako_function_sdk::{ToolError, function, package};

#[derive(Deserialize, JsonSchema)]
struct SummaryInput {
    /// The first page's URL.
    url: String,
}

#[derive(Deserialize)]
struct Ticket {
    id: u64,
    status: String,
    priority: String,
    estimate_h: Option<f64>,
}

#[derive(Deserialize)]
struct Page {
    tickets: Vec<Ticket>,
    next: Option<String>,
}

#[derive(Serialize, JsonSchema)]
struct Summary {
    pages: u64,
    tickets: u64,
    open: u64,
    hours_open: f64,
    urgent: Vec<u64>,
}

/// Sum up the tickets, page by page.
#[function]
fn summary(input: SummaryInput) -> Result<Summary, ToolError> {
    let mut url = input.url;
    let mut s = Summary { pages: 0, tickets: 0, open: 0, hours_open: 0.0, urgent: Vec::new() };
    loop {
        let mut request = Request::get(url.clone());
        request.headers.insert("accept".into(), "application/json".into());
        let response = http::request(&request)?;
        if !(200..300).contains(&response.status) {
            return Err(ToolError::new(format!("the API answered {} for {url}", response.status)));
        }
        let text = match &response.body {
            ResponseBody::Inline { text } => text.as_str(),
            ResponseBody::File { .. } => "",
        };
        let page: Page =
            serde_json::from_str(text).map_err(|e| ToolError::new(format!("the page is not JSON: {e}")))?;
        for ticket in &page.tickets {
            s.tickets += 1;
            if ticket.status == "open" {
                s.open += 1;
                s.hours_open += ticket.estimate_h.unwrap_or(0.0);
                if ticket.priority == "urgent" {
                    s.urgent.push(ticket.id);
                }
            }
        }
        s.pages += 1;
        match page.next {
            Some(next) => url = next,
            None => break,
        }
    }
    Ok(s)
}

package! {
    name: "pages",
    description: "Sums up a help desk's tickets.",
    functions: [summary],
}
