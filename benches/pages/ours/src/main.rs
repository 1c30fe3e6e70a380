//! `summary`: walks an HTTP API's pages of tickets, following each page's
//! `next` URL, and sums them up. benches/pages.sh runs it beside the same
//! tool on the official SDK (`../official`).
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;
use subako_tiny::http::Request;
use subako_tiny::{Args, Package, Reply, Tool, ToolError};

const INPUT: &str = r#"{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]}"#;

/// `summary` as authors first write it: `at` for each member of a page.
fn summary(args: &Args<'_>) -> Result<Reply, ToolError> {
    walk(args, false)
}

/// `summary` with the page's two members read in one walk
/// (`Object::fields`), as src/guide/http.md advises.
fn summary_fields(args: &Args<'_>) -> Result<Reply, ToolError> {
    walk(args, true)
}

fn walk(args: &Args<'_>, one_walk: bool) -> Result<Reply, ToolError> {
    let mut url: String = args.str("url")?.into();
    let (mut pages, mut tickets, mut open, mut hours) = (0u64, 0u64, 0u64, 0.0);
    let mut urgent = Vec::new();
    loop {
        let response = Request::get(&url).header("accept", "application/json").send_ok()?;
        let page = response.json()?;
        let (list, next) = if one_walk {
            let [list, next] = page.as_object().ok_or("the page is not an object")?.fields(["tickets", "next"]);
            (list, next)
        } else {
            (page.at(&["tickets"]), None)
        };
        let list = list.and_then(|v| v.as_array()).ok_or("the page has no `tickets` list")?;
        for ticket in list.fields(["id", "status", "priority", "estimate_h"]) {
            let [id, status, priority, estimate] = ticket.ok_or("a ticket is not an object")?;
            tickets += 1;
            if status.and_then(|v| v.as_str()).is_some_and(|s| s.eq_str("open")) {
                open += 1;
                hours += estimate.and_then(|v| v.as_f64()).unwrap_or(0.0);
                if priority.and_then(|v| v.as_str()).is_some_and(|s| s.eq_str("urgent")) {
                    urgent.push(id.and_then(|v| v.as_u64()).unwrap_or(0));
                }
            }
        }
        pages += 1;
        let next = if one_walk { next } else { page.at(&["next"]) };
        match next.and_then(|v| v.as_str()) {
            Some(next) => url = next.into_string(),
            None => break,
        }
    }
    Ok(Reply::object(|o| {
        o.field("pages", pages)
            .field("tickets", tickets)
            .field("open", open)
            .field("hours_open", hours)
            .field("urgent", &urgent)
    }))
}

pub const PACKAGE: Package = Package::new(
    "pages",
    "0.1.0",
    "Sums up a help desk's tickets.",
    &[
        Tool::new("summary", "Sum up the tickets, page by page.", INPUT, summary),
        Tool::new("summary_fields", "Sum up the tickets, page by page.", INPUT, summary_fields),
    ],
);

subako_tiny::main!(PACKAGE);
