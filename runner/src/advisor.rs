//! The size advisor: the std and core routines in a module that have a
//! cheaper equivalent, each with its bytes and what to write instead.
//!
//! It reads an unstripped module (a `name` section): a routine is found by
//! its demangled name, or, where LTO inlines it into the caller, by a table
//! it brings into the data. A routine the crate itself calls (the panic
//! message's formatting, say) is the author's only when the author's code
//! calls it too: the direct calls are followed from the author's functions
//! through everything but the crate's.

use std::collections::{BTreeSet, HashSet};

use serde::{Deserialize, Serialize};
use wasmparser::{Operator, Parser, Payload};

use crate::size::SizeReport;

/// One idiom an author writes, how it shows in a module, and what to write instead.
pub struct Rule {
    /// The std idiom, as an author writes it.
    pub idiom: &'static str,
    /// Demangled names of the routines it links. A pattern ending in `::`
    /// is a path prefix; any other matches the name itself, or the name
    /// followed by generic arguments or a closure (`::<…`, `::{…`).
    pub routines: &'static [&'static str],
    /// The starts of tables it brings into the data (entries of a `u32`
    /// key ascending and a `u32` value, as core's case conversion tables
    /// are), for idioms whose code LTO inlines into the caller.
    pub tables: &'static [[u32; 4]],
    /// What to write instead.
    pub instead: &'static str,
}

/// Every rule, in the order the advice is given. The prices behind them:
/// what one statement of each idiom adds to a module (docs/SIZE.md).
pub const RULES: &[Rule] = &[
    Rule {
        idiom: "Unicode case mapping (str::to_lowercase, to_uppercase: core's conversion tables)",
        routines: &[
            "<str>::to_lowercase",
            "<str>::to_uppercase",
            "alloc::str::<impl str>::to_lowercase",
            "alloc::str::<impl str>::to_uppercase",
            "core::unicode::unicode_data::conversions::",
            "core::unicode::unicode_data::cased::",
            "core::unicode::unicode_data::case_ignorable::",
        ],
        // LOWERCASE_TABLE's first entries ('À' → 'à', 'Á' → 'á'), and
        // UPPERCASE_TABLE's from 'à' → 'À' on (after 'µ' and 'ß').
        tables: &[[0xc0, 0xe0, 0xc1, 0xe1], [0xe0, 0xc0, 0xe1, 0xc1]],
        instead: "subako_tiny::case::to_lowercase / to_uppercase / eq_ignore_case / contains_ignore_case / \
                  find_ignore_case / count_ignore_case (std's answers from much smaller tables; each search \
                  reads its text again, so for many terms over one text, case::to_lowercase it once and \
                  str::find in that), or to_ascii_lowercase / to_ascii_uppercase where ASCII is enough",
    },
    Rule {
        idiom: "str::parse::<f64> (core's dec2flt: Lemire tables and a decimal fallback)",
        routines: &[
            "core::num::dec2flt::",
            "<f64 as core::str::traits::FromStr>::from_str",
            "<f32 as core::str::traits::FromStr>::from_str",
        ],
        tables: &[],
        instead: "subako_tiny::num::parse_f64, which answers s.parse::<f64>().ok() (the crate's own correctly rounded reader: a short decimal or a whole \
                  number at core's cost or less, a long decimal or one with an exponent at two to three and a half \
                  times core's fuel, so keep str::parse where reading such numbers is most of a call's work); to round a float to decimals, \
                  float::round_to::<2>(x) rather than parsing format!(\"{:.2}\", x)",
    },
    Rule {
        idiom: "str::parse of an integer (from_str_radix)",
        routines: &["core::num::<impl ", "<str>::parse", "core::str::<impl str>::parse", "from_str_radix"],
        tables: &[],
        instead: "subako_tiny::num::parse_i64 (or parse_u64, parse_i32, parse_u32), which answers s.parse().ok()",
    },
    Rule {
        idiom: "a stable sort (sort, sort_by, sort_by_key: driftsort)",
        routines: &["core::slice::sort::stable::", "alloc::slice::<impl [T]>::sort", "<[_]>::sort"],
        tables: &[],
        instead: "subako_tiny::sort::sort_by / sort_by_key (std's order, far fewer bytes, but on a list of thousands \
                  about twice std's work, and more on one mostly in order already, which std's sort passes in one \
                  reading: keep std's sort where a long list is sorted at each call), or sort_unstable where the \
                  order of equal items does not matter",
    },
    Rule {
        idiom: "an unstable sort (sort_unstable: ipnsort)",
        routines: &["core::slice::sort::unstable::"],
        tables: &[],
        instead: "subako_tiny::sort::sort_by / sort_by_key (far fewer bytes, but on a list of thousands about \
                  twice std's work: keep std's sort where a long list is sorted at each call)",
    },
    Rule {
        idiom: "libm's software float routines for what wasm does in an instruction (sqrt, floor, round…)",
        // Not libm's sin, exp…: the crate's (float::sin, std's own) are
        // larger, so there is nothing smaller to name for them.
        routines: &[
            "libm::math::sqrt::",
            "libm::math::sqrtf::",
            "libm::math::generic::sqrt::",
            "libm::math::floor::",
            "libm::math::floorf::",
            "libm::math::generic::floor::",
            "libm::math::ceil::",
            "libm::math::ceilf::",
            "libm::math::generic::ceil::",
            "libm::math::trunc::",
            "libm::math::truncf::",
            "libm::math::generic::trunc::",
            "libm::math::rint::",
            "libm::math::rintf::",
            "libm::math::generic::rint::",
            "libm::math::round::",
            "libm::math::roundf::",
            "libm::math::generic::round::",
            "libm::math::roundeven::",
            "libm::math::generic::roundeven::",
            "libm::math::fabs::",
            "libm::math::fabsf::",
            "libm::math::generic::fabs::",
            "libm::math::copysign::",
            "libm::math::copysignf::",
            "libm::math::generic::copysign::",
            "libm::math::fmin::",
            "libm::math::fminf::",
            "libm::math::generic::fmin::",
            "libm::math::fmax::",
            "libm::math::fmaxf::",
            "libm::math::generic::fmax::",
        ],
        tables: &[],
        instead: "subako_tiny::float::sqrt, floor, ceil, trunc, round_ties_even, abs, copysign, min, max (one \
                  wasm instruction each), round (a few)",
    },
    Rule {
        idiom: "str::trim, or a trim_matches/split with a closure (Unicode White_Space, char patterns)",
        routines: &[
            "core::unicode::unicode_data::white_space::",
            "<F as core::str::pattern::MultiCharEq>::matches",
            "<str>::trim",
            "core::str::<impl str>::trim",
        ],
        tables: &[],
        instead: "subako_tiny::chars::trim for white space, or trim_ascii where ASCII white space is enough; a \
                  closure pattern of your own costs what it matches",
    },
    Rule {
        idiom: "substring search (str::find, contains, split with a &str pattern, or a char pattern beyond ASCII: \
                TwoWaySearcher)",
        routines: &[
            "core::str::pattern::TwoWaySearcher::",
            "<core::str::pattern::StrSearcher",
            "<str>::find",
            "core::str::<impl str>::find",
            "<str>::contains",
            "core::str::<impl str>::contains",
        ],
        tables: &[],
        instead: "subako_tiny::chars::find (or an ASCII char pattern: s.find(',') searches one byte); to ask \
                  whether a char is one of a few, matches!(c, '«' | '»') rather than \"«»\".contains(c). \
                  chars::find compares at each offset: for a long needle from the caller (a query) in long \
                  text, bound the needle's length or keep std's, which stays linear",
    },
    Rule {
        idiom: "str::chars().count() (the char decoder loop)",
        routines: &["<core::str::iter::Chars as core::iter::traits::iterator::Iterator>::count", "core::str::count::"],
        tables: &[],
        instead: "subako_tiny::chars::count",
    },
    Rule {
        idiom: "char::is_alphanumeric / is_alphabetic / is_numeric (Unicode tables)",
        routines: &[
            "core::unicode::unicode_data::alphabetic::",
            "core::unicode::unicode_data::n::",
            "<char>::is_alphanumeric",
            "<char>::is_alphabetic",
            "<char>::is_numeric",
        ],
        tables: &[],
        instead: "for is_alphanumeric: subako_tiny::chars::is_alphanumeric (std's answers from one smaller \
                  table), and chars::words for s.split(|c: char| !c.is_alphanumeric()); is_ascii_alphanumeric \
                  where ASCII is enough. Both take digits as well as letters: for is_alphabetic or is_numeric \
                  alone the crate has nothing, so keep std's (or is_ascii_alphabetic, is_ascii_digit)",
    },
    Rule {
        idiom: "format! and core::fmt (fmt::write, Formatter::pad, float formatting: Grisu and Dragon)",
        routines: &[
            "core::fmt::write",
            "<core::fmt::Formatter>::pad",
            "core::fmt::Formatter::pad",
            "<core::fmt::Formatter>::pad_formatted_parts",
            "<core::fmt::Formatter>::write_formatted_parts",
            "core::fmt::float::",
            "core::num::flt2dec::",
            "alloc::fmt::format::format_inner",
            "<alloc::string::String as core::fmt::Write>::",
        ],
        tables: &[],
        instead: "text!(…) (numbers by the crate's own digit writers; a float as JSON writes it, 3.0 and 1e+20: \
                  text::plain(x) for {}'s own text, 3 and 100000000000000000000; text::fixed(x, 2) for {:.2}, as \
                  text or as a JSON number; float::round_to::<2>(x) for the rounded f64; text::zero_padded(n, 2) \
                  for {:02}; clock::now() for a timestamp), or JsonWriter for JSON",
    },
    Rule {
        idiom: "{:?} of a string or char (Rust's Debug escaper and its Unicode tables)",
        routines: &[
            "<char>::escape_debug_ext",
            "<str as core::fmt::Debug>::fmt",
            "<alloc::string::String as core::fmt::Debug>::fmt",
            "<char as core::fmt::Debug>::fmt",
            "core::unicode::unicode_data::grapheme_extend::",
        ],
        tables: &[],
        instead: "quote it yourself: text!(\"`\", s, \"`\") in a message; as JSON, o.field(\"name\", s) or \
                  JsonWriter::string, which escape what JSON needs ({:?} writes Rust's escapes, \\u{301}, which \
                  are not JSON's)",
    },
    Rule {
        idiom: "slice indexing v[i] (panic_bounds_check and its message)",
        routines: &["core::panicking::panic_bounds_check"],
        tables: &[],
        instead: ".get(i) with an answer of your own instead of indexing",
    },
    Rule {
        idiom: "str slicing &s[a..b] (slice_error_fail: a char-boundary check and its formatted message)",
        routines: &["core::str::slice_error_fail", "core::str::slice_error_fail_rt", "core::str::slice_error_fail_ct"],
        tables: &[],
        instead: "s.get(a..b) with an answer of your own (.unwrap_or(\"\")) instead of &s[a..b]",
    },
    Rule {
        idiom: "expect / Result::unwrap (their messages keep core::fmt alive under panic-message)",
        routines: &["core::option::expect_failed", "core::result::unwrap_failed"],
        tables: &[],
        instead: "unwrap_or(…), or ok_or(…)? with a ToolError, instead of expect",
    },
    Rule {
        idiom: "Vec growth (push, collect, extend: RawVec::grow_one, finish_grow)",
        routines: &[
            "alloc::raw_vec::RawVec<T,A>::grow_one",
            "<alloc::raw_vec::RawVec<_, _>>::grow_one",
            "<alloc::raw_vec::RawVecInner>::finish_grow",
            "alloc::raw_vec::finish_grow",
            "<alloc::raw_vec::RawVecInner<_>>::reserve::do_reserve_and_handle",
            "alloc::raw_vec::RawVecInner<A>::reserve::do_reserve_and_handle",
        ],
        tables: &[],
        instead: "iterate instead of collecting where the whole list is not needed (a list to sort is collected \
                  once); build output with the crate's writers (text!, Reply::object), which grow their buffers \
                  themselves. Vec::with_capacity does not take it out (push still grows), and each element type \
                  has its own copy",
    },
    Rule {
        idiom: "BTreeMap / BTreeSet",
        routines: &["alloc::collections::btree::"],
        tables: &[],
        instead: "subako_tiny::tally::Tally to count by key (add, get, sorted, most_common); a sorted Vec \
                  (subako_tiny::sort::sort_by_key) for the rest",
    },
];

/// One piece of advice: an idiom found in the module.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Advice {
    pub idiom: String,
    /// What replacing it takes out: its routines, the functions only they
    /// call and the data only those read; or, where the module keeps the
    /// routines for other uses too, their own code and tables.
    pub bytes: u64,
    /// The routines found, largest first (or the table).
    pub routines: Vec<String>,
    pub instead: String,
}

impl Advice {
    /// `  18,276 B  IDIOM: ROUTINES → INSTEAD`, over two lines.
    pub fn to_text(&self) -> String {
        let mut routines: Vec<&str> = self.routines.iter().map(String::as_str).take(3).collect();
        if self.routines.len() > 3 {
            routines.push("…");
        }
        format!(
            "{:>8} B  {} ({})\n            instead: {}\n",
            crate::size::thousands(self.bytes as usize),
            self.idiom,
            routines.join(", "),
            self.instead
        )
    }
}

/// Whether demangled `name` is one of `pattern`'s routines.
fn matches(name: &str, pattern: &str) -> bool {
    if pattern.ends_with("::") || pattern.ends_with(' ') {
        return name.starts_with(pattern);
    }
    match name.strip_prefix(pattern) {
        Some(rest) => rest.is_empty() || rest.starts_with("::<") || rest.starts_with("::{") || rest.starts_with('<'),
        None => false,
    }
}

/// The standard library's crates, whose routines the rules name.
const STD: [&str; 6] = ["core", "alloc", "std", "compiler_builtins", "hashbrown", "std_detect"];

/// The advice for `bytes` (an unstripped module, read as `report`), whose
/// own code is in the crates `authors` (the package's, its binaries').
pub fn advise(bytes: &[u8], report: &SizeReport, authors: &[&str]) -> Vec<Advice> {
    let calls = direct_calls(bytes, report);
    let is_crate = |i: usize| report.funcs[i].owner.starts_with("subako_tiny");
    let is_author = |i: usize| authors.contains(&report.funcs[i].owner.as_str());
    // Other crates the package depends on (serde_json, schemars…): what
    // they reach is theirs to answer for, as what the crate reaches is.
    let is_dependency = |i: usize| {
        let owner = report.funcs[i].owner.as_str();
        !is_crate(i)
            && !is_author(i)
            && owner.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !STD.contains(&owner)
    };
    // What the crate's own code and other crates reach, and what the
    // author's reaches without passing through either.
    let crate_reach =
        reach(&calls, (0..report.funcs.len()).filter(|&i| is_crate(i) || is_dependency(i)), |_, c| !is_author(c));
    let author_reach =
        reach(&calls, (0..report.funcs.len()).filter(|&i| is_author(i)), |_, c| !is_crate(c) && !is_dependency(c));
    let data = data_bytes(bytes);
    let roots = roots(bytes, report);
    let mut out = Vec::new();
    for rule in RULES {
        let mut found: Vec<(usize, usize, &str)> = report
            .funcs
            .iter()
            .enumerate()
            .filter(|(i, f)| {
                rule.routines.iter().any(|p| matches(&f.name, p))
                    && (author_reach.contains(i) || !crate_reach.contains(i))
            })
            .map(|(i, f)| (i, f.size, f.name.as_str()))
            .collect();
        found.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(b.2)));
        // What goes with the routines: they, what only they reach, and the
        // data only those read (trial 70: dec2flt's tables were left out,
        // and str::parse::<f64> was priced at a quarter of what it saved).
        let routines_at: HashSet<usize> = found.iter().map(|(i, _, _)| *i).collect();
        // Kept: what the module still reaches once the author's own calls
        // of the routines are gone (the crate's, a panic's, stay).
        let kept: HashSet<usize> =
            reach(&calls, roots.iter().copied(), |f, c| !(is_author(f) && routines_at.contains(&c)))
                .into_iter()
                .chain(roots.iter().copied())
                .collect();
        let freed: HashSet<usize> = reach(&calls, routines_at.iter().copied(), |_, c| !kept.contains(&c))
            .into_iter()
            .chain(routines_at.iter().copied())
            .filter(|i| !kept.contains(i))
            .collect();
        let own: u64 = found.iter().map(|(_, s, _)| *s as u64).sum();
        let freed_code: u64 = freed.iter().map(|&i| report.funcs[i].size as u64).sum();
        let freed_data: u64 = report
            .pieces
            .iter()
            .filter(|p| {
                let readers = if p.readers.is_empty() { &p.via } else { &p.readers };
                !readers.is_empty() && readers.iter().all(|r| freed.contains(r))
            })
            .map(|p| p.size as u64)
            .sum();
        // Routines the module keeps for other reasons too (a panic's
        // formatting, the crate's own Vec growth) free less or nothing:
        // then their own bytes, which go once the other uses go too.
        let whole = freed_code + freed_data > own;
        let mut bytes = if whole { freed_code + freed_data } else { own };
        // One name for the instances of a generic routine, with their count
        // and the author's functions that call them.
        let mut routines: Vec<String> = Vec::new();
        let mut shown_names: Vec<&str> = Vec::new();
        for (_, _, name) in &found {
            if shown_names.contains(name) {
                continue;
            }
            shown_names.push(name);
            let instances: Vec<usize> = found.iter().filter(|(_, _, x)| x == name).map(|(i, _, _)| *i).collect();
            let mut callers: Vec<&str> = (0..report.funcs.len())
                .filter(|&c| is_author(c) && calls[c].iter().any(|callee| instances.contains(callee)))
                .map(|c| report.funcs[c].name.as_str())
                .collect();
            callers.dedup();
            let count = if instances.len() > 1 { format!(" ×{}", instances.len()) } else { String::new() };
            let from = match callers.as_slice() {
                [] => String::new(),
                [one] => format!(", called by {}", caller(one)),
                [one, rest @ ..] => format!(", called by {} and {} more", caller(one), rest.len()),
            };
            routines.push(format!("{name}{count}{from}"));
        }
        let helpers = freed.iter().filter(|i| !routines_at.contains(i)).count();
        if whole && helpers > 0 {
            routines.push(format!("{helpers} function(s) only they call"));
        }
        if whole && freed_data > 0 {
            routines.push(format!("{} B of data only they read", crate::size::thousands(freed_data as usize)));
        }
        // Tables of routines LTO inlined into the author's code, which no
        // function of their own reads: unless the freed data holds them.
        for table in rule.tables.iter().filter_map(|t| table_bytes(&data, *t)) {
            if !whole || freed_data < table {
                bytes += table;
                routines.push(format!("a {} B table in the data", crate::size::thousands(table as usize)));
            }
        }
        if bytes > 0 {
            out.push(Advice { idiom: rule.idiom.into(), bytes, routines, instead: rule.instead.into() });
        }
    }
    // Largest first; a tie keeps the rules' order.
    out.sort_by_key(|a| std::cmp::Reverse(a.bytes));
    out
}

/// An author's function as the advice names it. `validated!` wraps a tool
/// function `f` in `…::f::validated`, and the compiler inlines `f` into
/// it: what such a wrapper calls is `f`'s own code, which the name alone
/// hides.
fn caller(name: &str) -> String {
    match name.strip_suffix("::validated").and_then(|path| path.rsplit("::").next()) {
        Some(tool) if !tool.is_empty() && tool != "validated" => {
            format!("{name} (the tool function `{tool}`, inlined into its validated! wrapper)")
        }
        _ => name.to_string(),
    }
}

/// Each defined function's direct callees: for the function at
/// code-section index `i`, the indices of the defined functions it calls
/// (`call` or `return_call`), sorted; calls of imports are left out.
/// `report` is [`size`](crate::size)'s report of the same `bytes`.
pub fn direct_calls(bytes: &[u8], report: &SizeReport) -> Vec<Vec<usize>> {
    let imported = report.imported_functions;
    let mut calls = Vec::new();
    for payload in Parser::new(0).parse_all(bytes) {
        let Ok(Payload::CodeSectionEntry(body)) = payload else { continue };
        let mut callees = BTreeSet::new();
        if let Ok(mut ops) = body.get_operators_reader() {
            while !ops.eof() {
                match ops.read() {
                    Ok(Operator::Call { function_index } | Operator::ReturnCall { function_index }) => {
                        if let Some(i) = (function_index as usize).checked_sub(imported) {
                            callees.insert(i);
                        }
                    }
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
        }
        calls.push(callees.into_iter().collect());
    }
    calls
}

/// Where the module's code can start: its exported functions, its start
/// function and those its tables hold (an indirect call may reach them),
/// as defined-function indices.
fn roots(bytes: &[u8], report: &SizeReport) -> Vec<usize> {
    let imported = report.imported_functions as u32;
    let mut out = Vec::new();
    let mut add = |f: u32| {
        if let Some(i) = f.checked_sub(imported) {
            out.push(i as usize);
        }
    };
    for payload in Parser::new(0).parse_all(bytes) {
        match payload {
            Ok(Payload::ExportSection(s)) => {
                for e in s.into_iter().flatten() {
                    if e.kind == wasmparser::ExternalKind::Func {
                        add(e.index);
                    }
                }
            }
            Ok(Payload::StartSection { func, .. }) => add(func),
            Ok(Payload::ElementSection(s)) => {
                for e in s.into_iter().flatten() {
                    match e.items {
                        wasmparser::ElementItems::Functions(fs) => fs.into_iter().flatten().for_each(&mut add),
                        wasmparser::ElementItems::Expressions(_, es) => {
                            for expr in es.into_iter().flatten() {
                                let mut ops = expr.get_operators_reader();
                                while let Ok(op) = ops.read() {
                                    if let Operator::RefFunc { function_index } = op {
                                        add(function_index);
                                    }
                                    if ops.eof() {
                                        break;
                                    }
                                }
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The functions reached from `start` by direct calls, following only the
/// calls (caller, callee) that `through` allows.
fn reach(
    calls: &[Vec<usize>],
    start: impl Iterator<Item = usize>,
    through: impl Fn(usize, usize) -> bool,
) -> HashSet<usize> {
    let mut seen: HashSet<usize> = HashSet::new();
    let mut todo: Vec<usize> = start.collect();
    let starts: HashSet<usize> = todo.iter().copied().collect();
    while let Some(f) = todo.pop() {
        for &c in calls.get(f).into_iter().flatten() {
            if !starts.contains(&c) && through(f, c) && seen.insert(c) {
                todo.push(c);
            }
        }
    }
    seen
}

/// The data segments' bytes, concatenated.
fn data_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for payload in Parser::new(0).parse_all(bytes) {
        if let Ok(Payload::DataSection(s)) = payload {
            for d in s.into_iter().flatten() {
                out.extend_from_slice(d.data);
            }
        }
    }
    out
}

/// The bytes of the table that starts with `start` (little-endian `u32`
/// pairs): from there on, while the keys ascend and stay Unicode scalar values.
fn table_bytes(data: &[u8], start: [u32; 4]) -> Option<u64> {
    let sig: Vec<u8> = start.iter().flat_map(|x| x.to_le_bytes()).collect();
    let at = data.windows(sig.len()).position(|w| w == sig.as_slice())?;
    let word = |i: usize| data.get(i..i + 4).map(|b| u32::from_le_bytes(b.try_into().unwrap()));
    let mut end = at;
    let mut last = None;
    while let Some(key) = word(end) {
        if key > 0x10ffff || last.is_some_and(|l| key <= l) || word(end + 4).is_none() {
            break;
        }
        last = Some(key);
        end += 8;
    }
    Some((end - at) as u64)
}
