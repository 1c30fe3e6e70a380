//! Arguments checked against a tool's own input schema, at call time.
//!
//! The schema is read where it stands (under `validated!`, a copy without
//! annotations made at build time) with the crate's reader, each schema
//! object once per value it checks, its keywords told apart as it is read;
//! an array's item schema, and those of its few properties, once for all
//! the items. The walk follows the schema, so it goes no deeper than the
//! schema nests, however deep the arguments are. Each object is walked
//! once, whatever its schema says: its members are taken in one pass, each
//! looked up among the schema's `properties` as it comes, and the rules
//! are then applied in schema order. A string's characters are counted
//! once for both of its bounds. Nothing is allocated unless a check fails
//! (for the message), or a key holds escapes and must be unescaped to be
//! compared.

use core::cmp::Ordering;
#[cfg(test)]
extern crate std;

use super::rules::BOUNDS;
use crate::args::Args;
use crate::bytes::{at, span};
use crate::json::Elements;
use crate::json::scan::skip_ws;
use crate::json::validator::{KnownEnds, skip_value};
use crate::json::{Array, Kind, Object, Str, Value, parse};
use crate::reply::ToolError;
use crate::text::Text;

/// Checks `args` against `schema` (a JSON Schema in the subset
/// [`check_supported`](super::rules::check_supported) accepts; keywords
/// outside it are ignored here). No arguments at all read as `{}`.
// One copy in a module, however many tools are validated: each tool's
// wrapper is a call of this.
#[inline(never)]
pub fn check_args(schema: &str, args: &Args<'_>) -> Result<(), ToolError> {
    match args.object() {
        Some(object) => check_value(schema, object.as_value()),
        None => check_value(schema, Value { raw: b"{}" }),
    }
}

/// [`check_args`] for a schema checked when it was made (by `validated!`,
/// at build time): it is not read as JSON again at each call.
#[inline(never)]
pub fn check_checked(schema: super::CheckedSchema, args: &Args<'_>) -> Result<(), ToolError> {
    let value = match args.object() {
        Some(object) => object.as_value(),
        None => Value { raw: b"{}" },
    };
    check(schema.value(), value, &Path::root(args.ends()))
}

/// Checks one JSON value against `schema`, as [`check_args`] checks the
/// arguments: `Err` holds `invalid input: POINTER RULE`.
pub(crate) fn check_value(schema: &str, value: Value<'_>) -> Result<(), ToolError> {
    let Ok(schema) = parse(schema.as_bytes()) else {
        return Err(plain_error("the tool's input schema is not JSON"));
    };
    check(schema, value, &Path::ROOT)
}

/// Where a value sits in the arguments: a chain of steps up to the root,
/// kept on the call stack and written out only for a message.
pub(crate) struct Path<'p, 'a> {
    up: Option<&'p Path<'p, 'a>>,
    step: Step<'a>,
    /// Where the request's validation saw values end, if the arguments
    /// are a request's.
    ends: Option<&'a KnownEnds>,
}

#[derive(Clone, Copy)]
enum Step<'a> {
    Root,
    Member(Str<'a>),
    Element(usize),
}

impl<'p, 'a> Path<'p, 'a> {
    /// The arguments themselves.
    pub(crate) const ROOT: Path<'static, 'static> = Path::root(None);

    /// The arguments of a request whose validation saw values end at `ends`.
    const fn root(ends: Option<&'a KnownEnds>) -> Path<'p, 'a> {
        Path { up: None, step: Step::Root, ends }
    }

    /// The member `name` of the value here.
    pub(crate) fn member(&'p self, name: Str<'a>) -> Path<'p, 'a> {
        Path { up: Some(self), step: Step::Member(name), ends: self.ends }
    }

    /// The element `index` of the value here.
    pub(crate) fn element(&'p self, index: usize) -> Path<'p, 'a> {
        Path { up: Some(self), step: Step::Element(index), ends: self.ends }
    }

    /// `invalid input: ` and the JSON Pointer of the value, the root
    /// written `/` (RFC 6901 writes it as nothing, which reads badly).
    pub(crate) fn invalid_input(&self) -> Text {
        let mut text = Text::of("invalid input: ");
        let bare = text.len();
        self.write(&mut text);
        if text.len() == bare {
            text.push("/");
        }
        text
    }

    /// Appends the JSON Pointer (RFC 6901) of the value, without the root.
    fn write(&self, out: &mut Text) {
        if let Some(up) = self.up {
            up.write(out);
        }
        match self.step {
            Step::Root => {}
            Step::Member(name) => {
                out.push("/").push_pointer_token(&name.to_str());
            }
            Step::Element(index) => {
                out.push("/").push(&index);
            }
        }
    }
}

/// The rule a value breaks, put in words only when one does.
enum Broken<'a> {
    /// A `false` schema, or a member `additionalProperties: false` forbids.
    NotAllowed,
    Required,
    /// The `type` keyword's value (one name or a list of them), and the
    /// value it refused.
    Type(Value<'a>, Value<'a>),
    /// The `enum` keyword's list, and the value it refused.
    OneOf(Value<'a>, Value<'a>),
    /// The `const` keyword's value.
    Const(Value<'a>),
    /// A bound, with the keyword's value.
    Limit(&'static Limit, Value<'a>),
}

/// `invalid input: POINTER` and the broken rule in words. The root is
/// written `/` (RFC 6901 writes it as nothing, which reads badly).
#[inline(never)]
fn fail(path: &Path<'_, '_>, broken: Broken<'_>) -> ToolError {
    let mut text = path.invalid_input();
    match broken {
        Broken::NotAllowed => {
            text.push(" is not allowed");
        }
        Broken::Required => {
            text.push(" is required");
        }
        Broken::Type(types, value) => {
            // "a string", "a string or null", "an integer, a boolean or an array".
            text.push(" must be ");
            let total = types.as_array().map_or(1, |list| list.len());
            let mut integer = false;
            for (n, name) in elements_or_self(types).enumerate() {
                if n > 0 {
                    text.push(if n + 1 == total { " or " } else { ", " });
                }
                let name = name.as_str().map_or(&b""[..], |s| s.raw());
                integer |= name == b"integer";
                text.push(TYPES.iter().find(|t| t.0.as_bytes() == name).map_or("", |t| t.2));
            }
            // 1965.0 or 1e3, a number refused as an integer: the rest of
            // the rule (a number allowed too would have passed).
            if integer && value.kind() == Kind::Number {
                text.push(", written without a fraction or exponent");
            }
        }
        Broken::OneOf(choices, value) => {
            text.push(" must be one of ");
            for (n, choice) in elements_or_self(choices).enumerate() {
                if n > 0 {
                    text.push(", ");
                }
                text.push_json(choice);
            }
            // What came, when short, as serde's "unknown variant" names
            // it (author trial 42): a model that sent "JA" or "fr" sees which.
            if value.raw().len() <= 40 {
                text.push(", not ").push_json(value);
            }
        }
        Broken::Const(literal) => {
            text.push(" must be ").push_json(literal);
        }
        Broken::Limit(limit, bound) => {
            text.push(limit.words).push_json(bound);
            if !limit.unit.is_empty() {
                text.push(limit.unit);
                if bound.raw() != b"1" {
                    text.push("s");
                }
            }
            text.push(limit.tail);
        }
    }
    ToolError::new(text.into_string())
}

/// A message that needs no words of the arguments, grown the crate's way
/// (`ToolError::new` of a `&str` links alloc's string copy).
#[inline(never)]
fn plain_error(message: &str) -> ToolError {
    ToolError::new(Text::of(message).into_string())
}

/// An array's elements, or the value alone when it is not an array.
fn elements_or_self(value: Value<'_>) -> ElementsOrSelf<'_> {
    match value.as_array() {
        Some(list) => ElementsOrSelf::Elements(list.iter()),
        None => ElementsOrSelf::Value(Some(value)),
    }
}

enum ElementsOrSelf<'a> {
    Elements(Elements<'a>),
    Value(Option<Value<'a>>),
}

impl<'a> Iterator for ElementsOrSelf<'a> {
    type Item = Value<'a>;

    fn next(&mut self) -> Option<Value<'a>> {
        match self {
            ElementsOrSelf::Elements(elements) => elements.next(),
            ElementsOrSelf::Value(value) => value.take(),
        }
    }
}

fn check<'a>(schema: Value<'a>, value: Value<'a>, path: &Path<'_, 'a>) -> Result<(), ToolError> {
    check_counted(schema, value, None, path)
}

/// [`check`], for a value whose length (a string's, in scalar values) may
/// be known already.
fn check_counted<'a>(
    schema: Value<'a>,
    value: Value<'a>,
    length: Option<u64>,
    path: &Path<'_, 'a>,
) -> Result<(), ToolError> {
    check_read(schema, schema.as_object().map(Rules::read).as_ref(), None, value, length, path)
}

/// [`check_counted`] with `schema` already read, if it is an object, and
/// its `properties` too, if they were read for all of an array's items.
fn check_read<'a>(
    schema: Value<'a>,
    rules: Option<&Rules<'a>>,
    declared: Option<&Declared<'a>>,
    value: Value<'a>,
    length: Option<u64>,
    path: &Path<'_, 'a>,
) -> Result<(), ToolError> {
    let broken = match rules {
        Some(rules) => check_rules(rules, declared, value, length, path)?,
        None => (schema.as_bool() == Some(false)).then_some(Broken::NotAllowed),
    };
    match broken {
        Some(broken) => Err(fail(path, broken)),
        None => Ok(()),
    }
}

/// Each element of an array against `schema`, read once for all of them,
/// with the schemas of its `properties`, if it lists a few.
fn check_items<'a>(schema: Value<'a>, elements: Array<'a>, path: &Path<'_, 'a>) -> Result<(), ToolError> {
    let rules = schema.as_object().map(Rules::read);
    let declared = rules.as_ref().and_then(Declared::read);
    for (index, element) in elements.iter().enumerate() {
        check_read(schema, rules.as_ref(), declared.as_ref(), element, None, &path.element(index))?;
    }
    Ok(())
}

/// A slot on the stack for each of the most `properties` one schema may
/// list: `validated!` refuses a schema that lists more; a check against
/// one fails with [`CROWDED`].
pub(crate) const SLOTS: usize = super::rules::MAX_PROPERTIES;

/// As many slots as most schemas' `properties` take: an object checked
/// against one of them clears this many, not [`SLOTS`] (wasmtime charges
/// clearing memory by the byte).
const FEW_SLOTS: usize = 8;

const CROWDED: &str = "the schema lists more than 64 properties in one object, more than the validator takes";

/// One of a schema's `properties`: its name, its schema, and the member of
/// the object being checked that it names (the last, if the name repeats,
/// as [`Object::get`] finds it), with its length if it is a string.
#[derive(Clone, Copy)]
struct Slot<'a> {
    name: Str<'a>,
    schema: Value<'a>,
    member: Option<Value<'a>>,
    length: Option<u64>,
}

const UNUSED: Slot<'static> =
    Slot { name: Str { raw: b"" }, schema: Value { raw: b"true" }, member: None, length: None };

/// What the checks after the type act on, one for each keyword: a bound
/// (its index in [`LIMITS`]) or one of these.
type Keyword = u8;
const ENUM: Keyword = 8;
const CONST: Keyword = 9;
const ITEMS: Keyword = 10;
const PROPERTIES: Keyword = 11;
const REQUIRED: Keyword = 12;
const ADDITIONAL: Keyword = 13;
/// How many keywords there are: a schema object keeps each at most once.
const KEYWORDS: usize = 14;

/// Each keyword's name, at its number: the bounds' as in [`LIMITS`] (the
/// first eight the build checks the pairs of).
const NAMES: [&str; KEYWORDS] = [
    BOUNDS[0],
    BOUNDS[1],
    BOUNDS[2],
    BOUNDS[3],
    BOUNDS[4],
    BOUNDS[5],
    BOUNDS[6],
    BOUNDS[7],
    "enum",
    "const",
    "items",
    "properties",
    "required",
    "additionalProperties",
];

/// A schema object read once for every value checked against it (an
/// array's items share one): its type, and the keywords the checks after
/// it act on, in schema order, each told apart once.
struct Rules<'a> {
    types: Option<Value<'a>>,
    /// The [`TYPES`] `types` names, a bit for each.
    allowed: u8,
    properties: Option<Object<'a>>,
    /// How many `properties`.
    declared: usize,
    additional: Option<Value<'a>>,
    /// Whether an object's members are walked: it has `properties` (an
    /// object), `additionalProperties` or `required`.
    members: bool,
    kept: [(Keyword, Value<'a>); KEYWORDS],
    count: usize,
}

// How many schema objects `Rules::read` has read on this thread, for the
// test that holds an array's items to one reading of their schemas.
#[cfg(test)]
std::thread_local! {
    static READS: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
}

impl<'a> Rules<'a> {
    #[inline(never)]
    fn read(object: Object<'a>) -> Rules<'a> {
        #[cfg(test)]
        READS.with(|reads| reads.set(reads.get() + 1));
        let mut rules = Rules {
            types: None,
            allowed: 0,
            properties: None,
            declared: 0,
            additional: None,
            members: false,
            kept: [(0, Value { raw: b"" }); KEYWORDS],
            count: 0,
        };
        for (name, rule) in object.iter() {
            let name = name.raw();
            if name == b"type" {
                rules.types = Some(rule);
                rules.allowed = elements_or_self(rule).fold(0, |allowed, name| allowed | type_bit(name));
                continue;
            }
            let Some(keyword) = NAMES.iter().position(|n| n.as_bytes() == name) else { continue };
            let keyword = keyword as Keyword;
            if keyword == PROPERTIES {
                // Not an object: nothing for the walk (the build refuses it).
                let Some(properties) = rule.as_object() else { continue };
                rules.properties = Some(properties);
                rules.declared = properties.len();
            } else if keyword == ADDITIONAL {
                rules.additional = Some(rule);
            }
            rules.members |= keyword >= PROPERTIES;
            // A keyword written twice (only a schema read at run time can
            // be) is checked where it first stands, with its last value.
            let kept = rules.kept.get(..rules.count).unwrap_or_default();
            let at = kept.iter().position(|k| k.0 == keyword).unwrap_or(rules.count);
            if let Some(kept) = rules.kept.get_mut(at) {
                *kept = (keyword, rule);
                rules.count = rules.count.max(at + 1);
            }
        }
        rules
    }
}

/// An object schema's few `properties`, each read once for all of an
/// array's items: their slots, names and schemas filled in, and each
/// schema's rules.
struct Declared<'a> {
    slots: [Slot<'a>; FEW_SLOTS],
    rules: [Option<Rules<'a>>; FEW_SLOTS],
    /// A bit for each slot `required` names, when it names only declared
    /// ones.
    required: Option<u8>,
}

impl<'a> Declared<'a> {
    fn read(rules: &Rules<'a>) -> Option<Declared<'a>> {
        let properties = rules.properties.filter(|_| rules.declared <= FEW_SLOTS)?;
        let mut declared = Declared { slots: [UNUSED; FEW_SLOTS], rules: [const { None }; FEW_SLOTS], required: None };
        for ((slot, read), (name, schema)) in declared.slots.iter_mut().zip(&mut declared.rules).zip(properties.iter())
        {
            *slot = Slot { name, schema, member: None, length: None };
            *read = schema.as_object().map(Rules::read);
        }
        let slots = declared.slots.get(..rules.declared).unwrap_or_default();
        if let Some(&(_, required)) = rules.kept.iter().find(|k| k.0 == REQUIRED) {
            let mut bits = 0u8;
            for name in elements_or_self(required) {
                // A name not declared, or not a string: read at each object.
                let Some(at) = name.as_str().and_then(|name| named(slots, name)) else { return Some(declared) };
                bits |= 1 << at;
            }
            declared.required = Some(bits);
        }
        Some(declared)
    }
}

/// The rule in `rules` that `value` itself breaks, if any, the type first
/// (the other keywords' messages assume it holds); what its members or
/// elements break is the error.
fn check_rules<'a>(
    rules: &Rules<'a>,
    declared: Option<&Declared<'a>>,
    value: Value<'a>,
    length: Option<u64>,
    path: &Path<'_, 'a>,
) -> Result<Option<Broken<'a>>, ToolError> {
    if let Some(types) = rules.types
        && !allows(rules.allowed, value)
    {
        return Ok(Some(Broken::Type(types, value)));
    }
    match value.as_object().filter(|_| rules.members) {
        None => check_keywords(rules, value, length, path, None),
        Some(object) => match declared {
            Some(declared) => {
                let mut slots = declared.slots;
                let slots = slots.get_mut(..rules.declared).unwrap_or_default();
                check_keywords(
                    rules,
                    value,
                    None,
                    path,
                    Some(Walked { object, slots, read: &declared.rules, required: declared.required }),
                )
            }
            None if rules.declared <= FEW_SLOTS => check_object::<FEW_SLOTS>(rules, object, path),
            // On the host, as many as it lists: `testing::call` checks
            // output schemas, which the build does not hold to SLOTS
            // (review 76: it failed every answer of such a tool).
            #[cfg(not(target_arch = "wasm32"))]
            None if rules.declared > SLOTS => {
                check_declared(rules, object, path, &mut alloc::vec![UNUSED; rules.declared])
            }
            None => check_object::<SLOTS>(rules, object, path),
        },
    }
}

/// [`check_keywords`] for an object, with `N` slots for its schema's
/// `properties` on the stack only while it is checked.
#[inline(never)]
fn check_object<'a, const N: usize>(
    rules: &Rules<'a>,
    object: Object<'a>,
    path: &Path<'_, 'a>,
) -> Result<Option<Broken<'a>>, ToolError> {
    check_declared(rules, object, path, &mut [UNUSED; N])
}

/// [`check_keywords`] for an object, its schema's `properties` named in
/// `slots` first.
#[inline(never)]
fn check_declared<'a>(
    rules: &Rules<'a>,
    object: Object<'a>,
    path: &Path<'_, 'a>,
    slots: &mut [Slot<'a>],
) -> Result<Option<Broken<'a>>, ToolError> {
    let mut declared = 0;
    if let Some(properties) = rules.properties {
        for (name, schema) in properties.iter() {
            let Some(slot) = slots.get_mut(declared) else {
                return Err(plain_error(CROWDED));
            };
            *slot = Slot { name, schema, member: None, length: None };
            declared += 1;
        }
    }
    let slots = slots.get_mut(..declared).unwrap_or_default();
    check_keywords(rules, object.as_value(), None, path, Some(Walked { object, slots, read: &[], required: None }))
}

/// An object whose members [`check_keywords`] walks: a slot for each of
/// its schema's `properties` (named), and the rules of their schemas if
/// they were read already (for all of an array's items).
struct Walked<'s, 'a> {
    object: Object<'a>,
    slots: &'s mut [Slot<'a>],
    read: &'s [Option<Rules<'a>>],
    /// A bit for each slot `required` names, if they are known.
    required: Option<u8>,
}

/// The rules after the type, in schema order; `members`, for an object
/// whose members are walked.
fn check_keywords<'a>(
    rules: &Rules<'a>,
    value: Value<'a>,
    mut length: Option<u64>,
    path: &Path<'_, 'a>,
    members: Option<Walked<'_, 'a>>,
) -> Result<Option<Broken<'a>>, ToolError> {
    // The object's members, each taken once: a declared one is kept in its
    // slot; any other is checked against `additionalProperties` at once,
    // the first failure kept for that keyword's turn.
    let mut additional_fault = None;
    let mut object = None;
    let mut slots: &[Slot<'a>] = &[];
    let mut read: &[Option<Rules<'a>>] = &[];
    let mut required = None;
    if let Some(Walked { object: walked, slots: all, read: known, required: order }) = members {
        for (name, member, counted) in Walk::new(walked, path.ends) {
            if let Some(slot) = named(all, name).and_then(|n| all.get_mut(n)) {
                (slot.member, slot.length) = (Some(member), counted);
            } else if let Some(rule) = rules.additional
                && additional_fault.is_none()
                && let Err(e) = check_counted(rule, member, counted, &path.member(name))
            {
                additional_fault = Some(e);
            }
        }
        object = Some(walked);
        slots = all;
        read = known;
        required = order;
    }
    let kind = value.kind();
    for &(keyword, rule) in rules.kept.get(..rules.count).unwrap_or_default() {
        if let Some(limit) = LIMITS.get(keyword as usize) {
            if limit.kind == kind && breaks(limit, value, rule, &mut length) {
                return Ok(Some(Broken::Limit(limit, rule)));
            }
        } else if keyword == ENUM {
            if !elements_or_self(rule).any(|choice| same(choice, value)) {
                return Ok(Some(Broken::OneOf(rule, value)));
            }
        } else if keyword == CONST {
            if !same(rule, value) {
                return Ok(Some(Broken::Const(rule)));
            }
        } else if let Some(elements) = value.as_array().filter(|_| keyword == ITEMS) {
            check_items(rule, elements, path)?;
        } else if let Some(object) = object {
            match keyword {
                PROPERTIES => {
                    for (n, slot) in slots.iter().enumerate() {
                        let Some(member) = slot.member else { continue };
                        let path = path.member(slot.name);
                        match read.get(n) {
                            Some(rules) => check_read(slot.schema, rules.as_ref(), None, member, slot.length, &path)?,
                            None => check_counted(slot.schema, member, slot.length, &path)?,
                        }
                    }
                }
                // Every required member there: `required` need not be read
                // (it is, for the message, when one is missing).
                REQUIRED
                    if required.is_some_and(|bits| {
                        slots.iter().enumerate().all(|(at, slot)| bits >> at & 1 == 0 || slot.member.is_some())
                    }) => {}
                REQUIRED => {
                    for name in elements_or_self(rule).filter_map(|n| n.as_str()) {
                        let present = match named(slots, name).and_then(|n| slots.get(n)) {
                            Some(slot) => slot.member.is_some(),
                            // Required but not kept (a schema with no
                            // `properties`): looked for on its own.
                            None => object.iter().any(|(key, _)| same_name(key, name)),
                        };
                        if !present {
                            return Err(fail(&path.member(name), Broken::Required));
                        }
                    }
                }
                ADDITIONAL => {
                    if let Some(e) = additional_fault.take() {
                        return Err(e);
                    }
                }
                _ => {}
            }
        }
    }
    Ok(None)
}

/// The slot named `name`: the name as written first, as it nearly always
/// is, then unescaped.
fn named(slots: &[Slot<'_>], name: Str<'_>) -> Option<usize> {
    let written = slots.iter().position(|slot| crate::bytes::same(slot.name.raw(), name.raw()));
    written.or_else(|| slots.iter().position(|slot| same_name(slot.name, name)))
}

/// Two member names are the same (compared unescaped).
#[inline(never)]
fn same_name(a: Str<'_>, b: Str<'_>) -> bool {
    crate::bytes::same(a.raw(), b.raw()) || (!(a.is_plain() && b.is_plain()) && a.eq_str(&b.to_str()))
}

/// A keyword that bounds a number, or a string's or an array's length.
struct Limit {
    /// The kind of value it applies to; it says nothing about others.
    kind: Kind,
    /// The comparison of the value with the bound that breaks it.
    beyond: Ordering,
    /// Equal to the bound breaks it too.
    exclusive: bool,
    words: &'static str,
    /// Named after the bound, with an `s` unless the bound is 1.
    unit: &'static str,
    tail: &'static str,
}

const fn limit(
    kind: Kind,
    beyond: Ordering,
    exclusive: bool,
    words: &'static str,
    unit: &'static str,
    tail: &'static str,
) -> Limit {
    Limit { kind, beyond, exclusive, words, unit, tail }
}

/// The bounds, each at its keyword's number in [`NAMES`].
static LIMITS: [Limit; 8] = [
    // minimum
    limit(Kind::Number, Ordering::Less, false, " must be at least ", "", ""),
    // maximum
    limit(Kind::Number, Ordering::Greater, false, " must be at most ", "", ""),
    // exclusiveMinimum
    limit(Kind::Number, Ordering::Less, true, " must be greater than ", "", ""),
    // exclusiveMaximum
    limit(Kind::Number, Ordering::Greater, true, " must be less than ", "", ""),
    // minLength
    limit(Kind::String, Ordering::Less, false, " must be at least ", " character", " long"),
    // maxLength
    limit(Kind::String, Ordering::Greater, false, " must be at most ", " character", " long"),
    // minItems
    limit(Kind::Array, Ordering::Less, false, " must have at least ", " item", ""),
    // maxItems
    limit(Kind::Array, Ordering::Greater, false, " must have at most ", " item", ""),
];

/// `value` is beyond `bound`: numbers compared with numbers, lengths in
/// Unicode scalar values or elements with counts. `length` keeps the
/// length once counted, for the other bound.
fn breaks(limit: &Limit, value: Value<'_>, bound: Value<'_>, length: &mut Option<u64>) -> bool {
    let order = if limit.kind == Kind::Number {
        compare(value, bound)
    } else {
        let length = *length.get_or_insert_with(|| match value.kind() {
            Kind::String => string_scan(value.raw, 0).1,
            _ => value.as_array().map_or(0, |a| a.len() as u64),
        });
        // A count past u64 (which the build refuses) is above any length.
        Some(bound.as_u64().map_or(Ordering::Less, |bound| length.cmp(&bound)))
    };
    order == Some(limit.beyond) || (limit.exclusive && order == Some(Ordering::Equal))
}

/// The JSON kinds each type name covers. An `integer` is a number written
/// without a fraction or exponent, as `Args::int` and serde read one.
const TYPES: [(&str, Kind, &str); 7] = [
    ("null", Kind::Null, "null"),
    ("boolean", Kind::Bool, "a boolean"),
    ("object", Kind::Object, "an object"),
    ("array", Kind::Array, "an array"),
    ("number", Kind::Number, "a number"),
    ("integer", Kind::Number, "an integer"),
    ("string", Kind::String, "a string"),
];

/// Where `integer` is in [`TYPES`].
const INTEGER: usize = 5;
const _: () = assert!(matches!(TYPES[INTEGER].0.as_bytes(), b"integer"));

/// The bit of the type `name` in [`Rules::allowed`]: 0 for a name that is
/// no type.
fn type_bit(name: Value<'_>) -> u8 {
    let name = name.as_str().map_or(&b""[..], |s| s.raw());
    TYPES.iter().position(|t| t.0.as_bytes() == name).map_or(0, |at| 1 << at)
}

/// `value` is of one of the types whose bits `allowed` holds.
fn allows(allowed: u8, value: Value<'_>) -> bool {
    let kind = value.kind();
    TYPES.iter().enumerate().any(|(at, t)| {
        allowed >> at & 1 == 1
            && t.1 == kind
            && (at != INTEGER || !value.raw().iter().any(|b| matches!(b, b'.' | b'e' | b'E')))
    })
}

/// Two numbers compared exactly when both are integers, else as `f64`.
fn compare(a: Value<'_>, b: Value<'_>) -> Option<Ordering> {
    let integer = |v: Value<'_>| v.as_i64().map(i128::from).or_else(|| v.as_u64().map(i128::from));
    match (integer(a), integer(b)) {
        (Some(a), Some(b)) => Some(a.cmp(&b)),
        _ => a.as_f64_or_infinity()?.partial_cmp(&b.as_f64_or_infinity()?),
    }
}

/// JSON equality, as `enum` and `const` mean it: numbers by value, strings
/// after unescaping, objects whatever their members' order. `literal`
/// comes from the schema, so the walk goes no deeper than the schema does.
fn same(literal: Value<'_>, value: Value<'_>) -> bool {
    match (literal.kind(), value.kind()) {
        (Kind::Number, Kind::Number) => compare(literal, value) == Some(Ordering::Equal),
        (Kind::String, Kind::String) => match (literal.as_str(), value.as_str()) {
            (Some(l), Some(v)) => v.eq_str(&l.to_str()),
            _ => false,
        },
        (Kind::Array, Kind::Array) => match (literal.as_array(), value.as_array()) {
            (Some(l), Some(v)) => l.len() == v.len() && l.iter().zip(v.iter()).all(|(l, v)| same(l, v)),
            _ => false,
        },
        (Kind::Object, Kind::Object) => match (literal.as_object(), value.as_object()) {
            (Some(l), Some(v)) => {
                l.len() == v.len() && l.iter().all(|(name, l)| v.get(&name.to_str()).is_some_and(|v| same(l, v)))
            }
            _ => false,
        },
        (a, b) => a == b && literal.raw() == value.raw(),
    }
}

/// An object's members in one pass over its (validated) text, as
/// [`Object::iter`] reads them, and for a string value its length: found
/// with its end, so a long string is read once.
pub(crate) struct Walk<'a> {
    b: &'a [u8],
    i: usize,
    ends: Option<&'a KnownEnds>,
}

impl<'a> Walk<'a> {
    /// The members of `object`; `ends`, where its request's validation
    /// saw values end, spares a second read of its longest string.
    pub(crate) fn new(object: Object<'a>, ends: Option<&'a KnownEnds>) -> Walk<'a> {
        Walk { b: object.as_value().raw, i: 1, ends }
    }
}

impl<'a> Iterator for Walk<'a> {
    type Item = (Str<'a>, Value<'a>, Option<u64>);

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.b;
        let mut i = skip_ws(b, self.i);
        if at(b, i) == b',' {
            i = skip_ws(b, i + 1);
        }
        if at(b, i) != b'"' {
            return None;
        }
        let (name_end, _) = string_scan(b, i);
        let v = skip_ws(b, skip_ws(b, name_end) + 1);
        let (end, length) = match at(b, v) {
            b'"' => {
                let (end, length) = match self.ends.and_then(|ends| ends.plain_end(b, v)) {
                    // The request's longest string, known to hold no
                    // escape: its end is known, and only its characters
                    // are counted.
                    Some(end) => (end, crate::chars::count_utf8(span(b, v + 1, end - 1)) as u64),
                    None => string_scan(b, v),
                };
                (end, Some(length))
            }
            _ => (skip_value(b, v, None), None),
        };
        self.i = end;
        Some((Str { raw: span(b, i + 1, name_end - 1) }, Value { raw: span(b, v, end) }, length))
    }
}

/// Eight copies of a byte, to look at a word's eight bytes at once.
const fn splat(b: u8) -> u64 {
    b as u64 * 0x0101_0101_0101_0101
}

/// Past the closing quote of the validated string whose opening quote is
/// at `i` in `b`, and the string's length in Unicode scalar values, as
/// `minLength` counts: an escape is one, a surrogate pair is one. Eight
/// bytes a turn where there is neither a quote nor a backslash, counting
/// the bytes that start a character (every byte but UTF-8's continuation
/// bytes, `10xxxxxx`).
fn string_scan(b: &[u8], i: usize) -> (usize, u64) {
    let mut n = 0;
    let mut i = i + 1;
    loop {
        if let Some(word) = b.get(i..).and_then(|rest| rest.first_chunk::<8>()) {
            let w = u64::from_le_bytes(*word);
            // A lane holding a quote or a backslash is zero in `q` or `s`;
            // the subtraction wraps it, and `!q`/`!s` keep only lanes below
            // 0x80: the test is exact.
            let (q, s) = (w ^ splat(b'"'), w ^ splat(b'\\'));
            if (q.wrapping_sub(splat(1)) & !q | s.wrapping_sub(splat(1)) & !s) & splat(0x80) == 0 {
                // Bit 7 set and bit 6 clear: a continuation byte.
                let continuation = w & !(w << 1) & splat(0x80);
                n += 8 - u64::from(continuation.count_ones());
                i += 8;
                continue;
            }
        }
        let c = at(b, i);
        if c == b'"' || c == 0 {
            return (i + 1, n);
        }
        i += if c != b'\\' {
            1
        } else if at(b, i + 1) != b'u' {
            2
        } else if matches!(at(b, i + 2) | 0x20, b'd') && matches!(at(b, i + 3) | 0x20, b'8' | b'9' | b'a' | b'b') {
            // `\uD800`–`\uDBFF` leads a pair: twelve bytes, one scalar.
            12
        } else {
            6
        };
        if c & 0xC0 != 0x80 {
            n += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use std::string::String;
    use std::vec;

    /// The word-at-a-time scan finds the closing quote and agrees with
    /// counting `char`s, for text with escapes at every offset among
    /// multi-byte characters.
    #[test]
    fn string_scan_finds_the_end_and_counts_chars() {
        let pieces =
            ["a", "é", "日本語", "😀", "\\n", "\\\"", "\\u00e9", "\\ud83d\\ude00", "\\\\", "xyzxyzxy", "\\u0022"];
        let decoded = ["a", "é", "日本語", "😀", "\n", "\"", "é", "😀", "\\", "xyzxyzxy", "\""];
        for a in 0..pieces.len() {
            for b in 0..pieces.len() {
                for pad in 0..41 {
                    let raw = ["q".repeat(pad), pieces[a].into(), "日".repeat(pad), pieces[b].into()].concat();
                    let text = ["q".repeat(pad), decoded[a].into(), "日".repeat(pad), decoded[b].into()].concat();
                    let quoted = ["\"", &raw, "\" tail"].concat();
                    assert_eq!(
                        string_scan(quoted.as_bytes(), 0),
                        (quoted.len() - 5, text.chars().count() as u64),
                        "{raw}"
                    );
                }
            }
        }
    }

    /// The walk takes the members `Object::iter` takes, whatever the white
    /// space and the values, and counts each string value.
    #[test]
    fn the_walk_reads_members_as_iter_does() {
        let texts = [
            "{}",
            " { } ",
            r#"{"a":1,"b":"x","c":[1,{"d":"}"}],"e":{"f":"\"]"},"g":null,"h":"日本\u00e9\ud83d\ude00"}"#,
            "{ \"a\" : \"long string of text here\" ,\n\t\"\\u0062\" : true , \"a\" : -1.5e3 }",
        ];
        for text in texts {
            let object = crate::json::parse(text.as_bytes()).unwrap().as_object().unwrap();
            let walked: vec::Vec<_> = Walk::new(object, None).collect();
            let read: vec::Vec<_> = object.iter().collect();
            assert_eq!(walked.len(), read.len(), "{text}");
            for ((name, value, length), (key, member)) in walked.into_iter().zip(read) {
                assert_eq!((name, value), (key, member), "{text}");
                let chars = member.as_str().map(|s| s.to_str().chars().count() as u64);
                assert_eq!(length, chars, "{text}");
            }
        }
    }

    /// The validator as it was before objects were walked once: each object
    /// keyword walked the whole value again, each member looked up with
    /// `Object::get` (the last of duplicates). The model the one walk must
    /// agree with, message for message.
    fn model<'a>(schema: Value<'a>, value: Value<'a>, path: &Path<'_, 'a>) -> Result<(), ToolError> {
        let broken = match schema.as_bool() {
            Some(allowed) => (!allowed).then_some(Broken::NotAllowed),
            None => model_rules(schema.as_object().unwrap(), value, path)?,
        };
        broken.map_or(Ok(()), |broken| Err(fail(path, broken)))
    }

    fn model_rules<'a>(
        rules: Object<'a>,
        value: Value<'a>,
        path: &Path<'_, 'a>,
    ) -> Result<Option<Broken<'a>>, ToolError> {
        if let Some(types) = rules.get("type")
            && !elements_or_self(types).any(|name| allows(type_bit(name), value))
        {
            return Ok(Some(Broken::Type(types, value)));
        }
        let get = |object: Object<'a>, name: Str<'_>| object.get(&name.to_str());
        for (keyword, rule) in rules.iter() {
            let keyword = keyword.raw();
            if let Some(limit) = LIMITS
                .iter()
                .zip(NAMES)
                .find(|(l, n)| n.as_bytes() == keyword && l.kind == value.kind())
                .map(|(l, _)| l)
            {
                if breaks(limit, value, rule, &mut None) {
                    return Ok(Some(Broken::Limit(limit, rule)));
                }
            } else if keyword == b"enum" {
                if !elements_or_self(rule).any(|choice| same(choice, value)) {
                    return Ok(Some(Broken::OneOf(rule, value)));
                }
            } else if let Some(elements) = value.as_array().filter(|_| keyword == b"items") {
                for (index, element) in elements.iter().enumerate() {
                    model(rule, element, &path.element(index))?;
                }
            } else if let Some(object) = value.as_object() {
                match keyword {
                    b"required" => {
                        for name in elements_or_self(rule).filter_map(|n| n.as_str()) {
                            if get(object, name).is_none() {
                                return Err(fail(&path.member(name), Broken::Required));
                            }
                        }
                    }
                    b"properties" => {
                        for (name, property) in rule.as_object().unwrap().iter() {
                            if let Some(value) = get(object, name) {
                                model(property, value, &path.member(name))?;
                            }
                        }
                    }
                    b"additionalProperties" => {
                        let declared = rules.get("properties").and_then(|p| p.as_object());
                        for (name, value) in object.iter() {
                            if declared.and_then(|d| get(d, name)).is_none() {
                                model(rule, value, &path.member(name))?;
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        Ok(None)
    }

    /// Object keywords in every order, nested, with undeclared required
    /// names, duplicates, escaped names, more properties than the stack
    /// holds, and several faults at once: the one walk finds the fault the
    /// model finds first, or none when it finds none.
    #[test]
    fn one_walk_agrees_with_walking_once_per_keyword() {
        let keywords = [
            r#""properties":{"a":{"type":"integer","maximum":9},"b":{"type":"string","maxLength":2},"o":{"type":"object","properties":{"x":{"type":"boolean"}},"required":["x"],"additionalProperties":false}}"#,
            r#""required":["b","a"]"#,
            r#""additionalProperties":{"type":"null"}"#,
            r#""additionalProperties":false"#,
            r#""required":["z"]"#,
        ];
        // No keyword twice: the build refuses a schema with a key twice.
        let twice = |a: usize, b: usize| keywords[a][..8] == keywords[b][..8];
        let mut schemas = vec![];
        // Every ordered choice of up to three keywords.
        for i in 0..keywords.len() {
            schemas.push(std::format!("{{{}}}", keywords[i]));
            for j in 0..keywords.len() {
                if !twice(i, j) {
                    schemas.push(std::format!("{{{},{}}}", keywords[i], keywords[j]));
                    for k in 0..keywords.len() {
                        if !twice(k, i) && !twice(k, j) {
                            schemas.push(std::format!("{{{},{},{}}}", keywords[i], keywords[j], keywords[k]));
                        }
                    }
                }
            }
        }
        let many: String = (0..40)
            .map(|n| std::format!(r#""p{n}":{{"type":"integer","maximum":{n}}}"#))
            .collect::<vec::Vec<_>>()
            .join(",");
        schemas
            .push(std::format!(r#"{{"properties":{{{many}}},"required":["p39","p3"],"additionalProperties":false}}"#));
        let arguments = [
            r#"{}"#,
            r#"{"a":1,"b":"x"}"#,
            r#"{"a":10,"b":"xyz"}"#,
            r#"{"b":"xyz","a":10}"#,
            r#"{"a":10,"a":1,"b":"x"}"#,
            r#"{"a":1,"a":10,"b":"x"}"#,
            r#"{"\u0061":10,"b":"x"}"#,
            r#"{"a":1,"b":"x","c":null,"d":1}"#,
            r#"{"d":1,"a":"s","b":"x"}"#,
            r#"{"a":1,"b":"x","o":{"x":true}}"#,
            r#"{"a":1,"b":"x","o":{"y":true}}"#,
            r#"{"a":1,"b":"x","o":{"x":1,"y":true}}"#,
            r#"{"z":null,"a":1}"#,
            r#"{"p0":0,"p39":39,"p3":4}"#,
            r#"{"p39":40,"p0":1}"#,
            r#"{"p3":3,"p39":1,"q":1}"#,
        ];
        let mut compared = 0;
        for schema in &schemas {
            let schema = crate::json::parse(schema.as_bytes()).unwrap();
            for arguments in arguments {
                let value = crate::json::parse(arguments.as_bytes()).unwrap();
                let root = Path::ROOT;
                let message = |r: Result<(), ToolError>| r.map_err(|e| String::from(e.message()));
                assert_eq!(
                    message(check(schema, value, &root)),
                    message(model(schema, value, &root)),
                    "{} against {}",
                    arguments,
                    schema.as_json()
                );
                compared += 1;
            }
        }
        assert_eq!(compared, (5 + 16 + 24 + 1) * arguments.len());
    }

    /// Arrays of objects, whose item schema is read once for all the
    /// items, and schemas as `validated!` keeps them (annotations left
    /// out): the same answer as the model, message for message, and as the
    /// schema as written.
    #[test]
    fn items_read_once_and_the_kept_copy_agree_with_the_schema_as_written() {
        let few = r#"{"type":"object","description":"An order.","properties":{"items":{"type":"array","minItems":1,"description":"Lines.","items":{"type":"object","title":"A line","properties":{"sku":{"description":"SKU.","type":"string","minLength":1,"maxLength":4},"qty":{"type":"integer","minimum":1,"maximum":9,"x-unit":"pieces"},"description":{"type":"string","enum":["a",{"description":"b"}]}},"required":["sku","qty"],"additionalProperties":false,"examples":[{"sku":"x"}]}},"tags":{"type":"array","items":{"type":"string","maxLength":2,"default":"ab"}},"grid":{"type":"array","items":{"type":"array","items":{"type":"object","properties":{"v":{"type":"number","exclusiveMinimum":0}}}}}},"required":["items"],"$comment":"c"}"#;
        let nine: String = (0..9)
            .map(|n| std::format!(r#""p{n}":{{"type":"integer","description":"n{n}","maximum":{n}}}"#))
            .collect::<vec::Vec<_>>()
            .join(",");
        let many = std::format!(
            r#"{{"type":"object","properties":{{"rows":{{"type":"array","items":{{"type":"object","properties":{{{nine}}},"required":["p8"]}}}}}}}}"#
        );
        let arguments = [
            r#"{}"#,
            r#"{"items":[]}"#,
            r#"{"items":[{"sku":"a","qty":1}]}"#,
            r#"{"items":[{"sku":"a","qty":1},{"sku":"b","qty":2},{"sku":"c","qty":3}]}"#,
            r#"{"items":[{"sku":"a","qty":1},{"sku":"abcde","qty":2}]}"#,
            r#"{"items":[{"sku":"a","qty":1},{"qty":2}]}"#,
            r#"{"items":[{"sku":"a","qty":1},{"sku":"b","qty":10}]}"#,
            r#"{"items":[{"sku":"a","qty":1.5}]}"#,
            r#"{"items":[{"sku":"a","qty":1,"extra":true}]}"#,
            r#"{"items":[{"sku":"a","qty":1,"description":"a"},{"sku":"a","qty":1,"description":{"description":"b"}}]}"#,
            r#"{"items":[{"sku":"a","qty":1,"description":"z"}]}"#,
            r#"{"items":[{"sku":"a","qty":1},"x"]}"#,
            r#"{"items":[{"sku":"a","qty":1}],"tags":["ab","c","abc"]}"#,
            r#"{"items":[{"sku":"a","qty":1}],"grid":[[{"v":1}],[{"v":2},{"v":0}]]}"#,
            r#"{"items":[{"sku":"a","qty":1}],"grid":[[{"v":1}],[{"v":2},{"v":"3"}]]}"#,
            r#"{"rows":[{"p8":8},{"p8":8,"p0":0},{"p8":8,"p3":4}]}"#,
            r#"{"rows":[{"p8":8},{"p0":0}]}"#,
            r#"{"rows":[{"p8":9}]}"#,
            r#"{"rows":[{"a":1,"b":2,"zz":0},{"a":1,"zz":1}]}"#,
            r#"{"rows":[{"a":1,"b":2,"zz":0},{"b":1,"zz":1},{"a":1,"b":null}]}"#,
            r#"{"rows":[{"\u0061":1,"b":2,"zz":0},{"b":[],"zz":1,"a":"x"}]}"#,
        ];
        // `required` naming an undeclared member, an escaped name, a
        // number: read at each object, or kept for all of them.
        let undeclared = r#"{"type":"object","properties":{"rows":{"type":"array","items":{"type":"object","properties":{"a":{"type":"integer"},"b":{}},"required":["b","zz"]}}}}"#;
        let escaped = r#"{"type":"object","properties":{"rows":{"type":"array","items":{"type":"object","properties":{"a":{"type":"integer"},"b":{}},"required":["\u0061","b"]}}}}"#;
        let numbered = r#"{"type":"object","properties":{"rows":{"type":"array","items":{"type":"object","properties":{"a":{"type":"integer"},"b":{}},"required":["b",3,"a"]}}}}"#;
        for written in [few, &many, undeclared, escaped, numbered] {
            let len = crate::rendered::validator_len(written);
            let kept = crate::rendered::validator_array::<4096>(written);
            assert!(kept[len..].iter().all(|&b| b == 0), "{len}");
            let kept = String::from_utf8(kept[..len].to_vec()).unwrap();
            for gone in ["An order.", "Lines.", "SKU.", "A line", "x-unit", "examples", "default", "$comment", "n3"] {
                assert!(!kept.contains(gone), "{gone} in {kept}");
            }
            // A property named `description`, and data that holds one, stay.
            if written == few {
                assert!(kept.contains(r#""description":{"type":"string","enum":["a",{"description":"b"}]}"#), "{kept}");
            }
            let written = crate::json::parse(written.as_bytes()).unwrap();
            let kept = crate::json::parse(kept.as_bytes()).unwrap();
            for arguments in arguments {
                let value = crate::json::parse(arguments.as_bytes()).unwrap();
                let root = Path::ROOT;
                let message = |r: Result<(), ToolError>| r.map_err(|e| String::from(e.message()));
                let model = message(model(written, value, &root));
                assert_eq!(message(check(written, value, &root)), model, "{arguments} against {}", written.as_json());
                assert_eq!(message(check(kept, value, &root)), model, "{arguments} against {}", kept.as_json());
            }
        }
    }

    /// The schemas of an array's items and of their few properties are
    /// read once for the whole array, however many items it has (they
    /// were read once an item, each member's schema walked again for
    /// every object).
    #[test]
    fn an_arrays_item_schemas_are_read_once() {
        let schema = r#"{"type":"object","properties":{"lines":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string","maxLength":8},"qty":{"type":"integer","minimum":1},"note":{"type":"string"}},"required":["sku","qty"]}}}}"#;
        let schema = crate::json::parse(schema.as_bytes()).unwrap();
        let reads = |n: usize| {
            let lines: vec::Vec<String> = (0..n).map(|i| std::format!(r#"{{"sku":"s{i}","qty":{}}}"#, i + 1)).collect();
            let arguments = std::format!(r#"{{"lines":[{}]}}"#, lines.join(","));
            let value = crate::json::parse(arguments.as_bytes()).unwrap();
            let before = READS.with(|r| r.get());
            assert_eq!(check(schema, value, &Path::ROOT).map_err(|e| String::from(e.message())), Ok(()));
            READS.with(|r| r.get()) - before
        };
        assert_eq!(reads(50), reads(1));
        // The arguments, `lines`, its item schema, and its three properties.
        assert_eq!(reads(1), 6);
    }
}
