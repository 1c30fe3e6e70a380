//! What a tool's structured value must be before it goes to stdout: JSON
//! that every reader accepts, serde_json's (the official SDK's) included.
//! A value written through [`ObjectWriter`](super::ObjectWriter) is that
//! by construction, but for a key written twice, which nothing stops (and
//! `testing::call` finds), and for nesting past what readers take, which
//! the writer notes and the reply is refused for; one written token by token, or
//! holding JSON text copied in as it is (a file's line, an HTTP body), is
//! checked here first.

use alloc::vec::Vec;

use super::scan::{at, span};
use super::unescape::unescape_into;
use super::validator::{MAX_DEPTH, ReadErrorKind, number_end, skip_string, skip_value, validate};
use super::value::{Str, Value};
use crate::bytes::PRIME;
use crate::text::Text;

/// How deep a structured value may nest: its answer holds it two levels
/// down (`{"result":{"structuredContent":…}}`), and the line as a whole
/// must stay within the [`MAX_DEPTH`] readers allow.
pub(crate) const MAX_VALUE_DEPTH: usize = MAX_DEPTH - 3;

/// A check of the structured value `tool` answered with, before it is
/// sent: the error names the tool, what is wrong and how to mend it. A
/// module links the checks its replies can need and no other (a reply
/// written only through [`ObjectWriter`](super::ObjectWriter) needs none).
pub(crate) type Check = fn(value: &[u8], tool: Str<'_>, max_depth: usize) -> Result<(), Text>;

// The check every reply gets before it is sent: none until a `JsonWriter`
// is made (then `shape`), or JSON text is copied into one (then `strict`);
// it only grows. Not cleared as each call starts: a writer kept in a static
// from an earlier call on the same stdin would then go out unchecked (review
// 62: a line that was not JSON). So in a `serve` session a call may be
// checked more strictly than alone; on the platform each call is alone. One flag a check: a module that never sets one never
// stores to it, so the optimizer knows it stays false and links that check
// not at all. On the host the flags are the thread's, so that tests running
// side by side in one process do not raise each other's checks.
#[cfg(target_arch = "wasm32")]
mod flags {
    use core::sync::atomic::{AtomicBool, Ordering};

    static SHAPE: AtomicBool = AtomicBool::new(false);
    static STRICT: AtomicBool = AtomicBool::new(false);
    static TOO_DEEP: AtomicBool = AtomicBool::new(false);

    fn flag(which: super::Flag) -> &'static AtomicBool {
        match which {
            super::Flag::Shape => &SHAPE,
            super::Flag::Strict => &STRICT,
            super::Flag::TooDeep => &TOO_DEEP,
        }
    }

    pub(super) fn set(which: super::Flag) {
        flag(which).store(true, Ordering::Relaxed);
    }

    pub(super) fn get(which: super::Flag) -> bool {
        flag(which).load(Ordering::Relaxed)
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod flags {
    extern crate std;
    use core::cell::Cell;

    std::thread_local! {
        static FLAGS: Cell<u8> = const { Cell::new(0) };
    }

    pub(super) fn set(which: super::Flag) {
        FLAGS.with(|f| f.set(f.get() | 1 << which as u8));
    }

    pub(super) fn get(which: super::Flag) -> bool {
        FLAGS.with(|f| f.get() & 1 << which as u8 != 0)
    }

    pub(super) fn clear() {
        FLAGS.with(|f| f.set(0));
    }
}

/// The checks a module may need, and whether a writer went too deep, each
/// a flag.
#[derive(Clone, Copy)]
enum Flag {
    /// Replies are checked for their shape.
    Shape,
    /// Replies are checked as strict readers read them.
    Strict,
    /// A writer opened an object or array too deep ([`went_too_deep`]).
    TooDeep,
}

/// As a fresh process starts (host builds): no check yet, whatever ran
/// on this thread before, so that a test's answer does not depend on the
/// tests that ran before it on the same thread.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn start_process() {
    flags::clear();
}

/// From now on, replies are checked for their shape.
pub(crate) fn need_shape() {
    flags::set(Flag::Shape);
}

/// From now on, replies are checked as strict readers read them.
pub(crate) fn need_strict() {
    flags::set(Flag::Strict);
}

/// A writer opened an object or array deeper than a reply may hold
/// ([`MAX_VALUE_DEPTH`]: the writers count their depth, a level a closure
/// or a slice, and the writer that did is marked,
/// [`JsonWriter::too_deep`](super::JsonWriter::too_deep)): from now on, a
/// reply marked so is refused ([`too_deep_answer`]; review 76: 126 levels
/// went out as a line serde_json refuses). A module that nests no deeper
/// than its code says never sets it, and links no refusal. The mark is
/// the document's, not a count over time (review 81: a closure writing
/// into an outer writer from inside another's was put down to the wrong
/// one).
pub(crate) fn went_too_deep() {
    flags::set(Flag::TooDeep);
}

/// Whether any writer has opened an object or array too deep.
pub(crate) fn any_too_deep() -> bool {
    flags::get(Flag::TooDeep)
}

/// The check replies get, if any.
pub(crate) fn needed() -> Option<Check> {
    if flags::get(Flag::Strict) {
        Some(strict)
    } else if flags::get(Flag::Shape) {
        Some(shape)
    } else {
        None
    }
}

/// Checks `value` is one JSON value, nested at most `max_depth` deep (a
/// reply: [`MAX_VALUE_DEPTH`]): what a [`JsonWriter`](super::JsonWriter)
/// written token by token needs.
pub(crate) fn shape(value: &[u8], tool: Str<'_>, max_depth: usize) -> Result<(), Text> {
    walk(value, false, max_depth).map_err(|why| answered_with(tool, why))
}

/// [`shape`], and also every number within `f64` and no object holding a
/// member twice: what a value holding JSON text copied in as it is needs.
/// Linked only into modules that copy JSON text into a reply.
pub(crate) fn strict(value: &[u8], tool: Str<'_>, max_depth: usize) -> Result<(), Text> {
    walk(value, true, max_depth).map_err(|why| answered_with(tool, why))
}

/// How many levels down in a reply a value that
/// [`Value::is_interoperable`](super::Value::is_interoperable) passes may
/// be copied.
pub(crate) const COPY_ROOM: usize = 16;

/// Whether [`strict`] passes `value` copied up to [`COPY_ROOM`] levels
/// down in a reply (an entry of `{"entries":[…]}` is two down): what
/// [`Value::is_interoperable`](super::Value::is_interoperable) answers. Through `strict`'s own walk: a
/// second copy of it would cost more than the unused message.
pub(crate) fn interoperable(value: &[u8]) -> bool {
    strict(value, Str { raw: b"" }, MAX_VALUE_DEPTH - COPY_ROOM).is_ok()
}

/// The error for a reply whose value closures nested past
/// [`MAX_VALUE_DEPTH`]: [`shape`]'s words, without a walk to find where.
pub(crate) fn too_deep_answer(tool: Str<'_>) -> Text {
    const _: () = assert!(MAX_VALUE_DEPTH == 125, "the message below names it");
    crate::text!(
        "tool `",
        tool,
        "` answered with structuredContent that nests arrays and objects deeper than 125 levels, which JSON \
         readers refuse"
    )
}

fn answered_with(tool: Str<'_>, why: Text) -> Text {
    crate::text!("tool `", tool, "` answered with structuredContent that ", why)
}

/// One walk over `value` for [`shape`] or [`strict`].
#[inline(always)]
fn walk(value: &[u8], strict: bool, max_depth: usize) -> Result<(), Text> {
    // Deeper than a reader takes is no writer's mistake but nesting (a
    // `json::object` put into a reply): the walk below says where.
    if let Err(e) = validate(value)
        && e.kind != ReadErrorKind::TooDeep
    {
        return Err(crate::text!(
            "is not JSON (",
            e.kind.describe(),
            " at byte ",
            e.offset,
            "): a JsonWriter needs an end_ for each begin_, a value for each key and valid JSON for each raw; \
             Reply::object writes whole values"
        ));
    }
    let mut depth = 0usize;
    let mut i = 0;
    while i < value.len() {
        let c = at(value, i);
        match c {
            b'"' => {
                i = skip_string(value, i);
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > max_depth {
                    return Err(crate::text!(
                        "nests arrays and objects deeper than ",
                        max_depth,
                        " levels (at byte ",
                        i,
                        "), which JSON readers refuse"
                    ));
                }
                if strict && c == b'{' {
                    duplicates(value, i)?;
                }
            }
            b']' | b'}' => depth -= 1,
            b'-' | b'0'..=b'9' if strict => {
                let end = number_end(value, i).unwrap_or(value.len());
                let number = Value { raw: span(value, i, end) };
                if !finite(number.raw) {
                    return Err(crate::text!(
                        "holds the number ",
                        number.as_json(),
                        " (at byte ",
                        i,
                        "), beyond what an f64 holds, which JSON readers refuse: send it as a string"
                    ));
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// Whether validated number text reads as a finite `f64`. Without an
/// exponent, 300 digits are far below `f64::MAX`; only the rest are read.
fn finite(number: &[u8]) -> bool {
    if number.len() <= 300 && !number.iter().any(|&b| b | 0x20 == b'e') {
        return true;
    }
    super::float::parse(number).is_finite()
}

/// Checks the object that starts at `value[start]` for a member named
/// twice (names compared unescaped), in time linear in its members: each
/// name goes into an open-addressing table of their key offsets, so it is
/// compared only with names of the same hash. The hash's bits are mixed
/// (the crate's plain one gave names alike but for a few characters runs
/// of neighbouring slots), and names made to collide under its fixed key
/// are hashed again under a random one once they take more than a few
/// probes a member: either made the check quadratic (review 99: an object
/// of 32,768 members `item-00000`… copied into a reply ran out of time).
fn duplicates(value: &[u8], start: usize) -> Result<(), Text> {
    let end = skip_value(value, start, None);
    let Some(members) = (Value { raw: span(value, start, end) }).as_object() else { return Ok(()) };
    let slots = (members.len() * 2).next_power_of_two();
    // Slot `k` holds 1 + the offset in `value` of a key's opening quote, or 0.
    let mut table = Vec::new();
    let mut unescaped = Vec::new();
    // A fixed key first, so that a module's work is the same on every run;
    // past a few probes a member, names made for it, and a random key.
    let mut hash_key = FIXED_KEY;
    'attempt: loop {
        table.clear();
        crate::sys::resize_zeroed(&mut table, slots * SLOT);
        let mut probes_left = 4 * slots;
        for (key, _) in members.iter() {
            let offset = key.raw().as_ptr() as usize - value.as_ptr() as usize - 1;
            let name = if key.is_plain() {
                key.raw()
            } else {
                unescaped.clear();
                unescape_into(&mut unescaped, key.raw());
                &unescaped
            };
            let mut slot = keyed_hash(name, hash_key);
            loop {
                slot &= slots - 1;
                let Some(cell) = table.get_mut(slot * SLOT..slot * SLOT + SLOT) else { break };
                let stored = u32::from_le_bytes([cell[0], cell[1], cell[2], cell[3]]) as usize;
                if stored == 0 {
                    cell.copy_from_slice(&(offset as u32 + 1).to_le_bytes());
                    break;
                }
                let other = Str { raw: span(value, stored, skip_string(value, stored - 1) - 1) };
                if other.eq_bytes(name) {
                    let key = Value { raw: span(value, offset, skip_string(value, offset)) };
                    return Err(crate::text!(
                        "has the member ",
                        key.as_json(),
                        " twice in one object (at byte ",
                        offset,
                        "), which strict JSON readers refuse"
                    ));
                }
                slot += 1;
                #[cfg(test)]
                tests::PROBES.with(|p| p.set(p.get() + 1));
                probes_left = probes_left.saturating_sub(1);
                if probes_left == 0 && hash_key == FIXED_KEY {
                    if let Some(key) = random_key() {
                        hash_key = key;
                        continue 'attempt;
                    }
                    // No random bytes: on under the fixed key, slow for
                    // names made for it, but to the end (review 100: the
                    // same key again restarted the check for ever).
                    probes_left = usize::MAX;
                }
            }
        }
        return Ok(());
    }
}

/// `name`'s hash under `key` (a base of 2^16 to [`PRIME`]): a polynomial
/// in the base modulo [`PRIME`], on which two names of n bytes agree for
/// at most n keys of the PRIME - 2^16 there are, then multiplied by a
/// 64-bit odd constant (Fibonacci hashing), whose high half spreads names
/// that differ in their last bytes over the table.
fn keyed_hash(name: &[u8], key: u64) -> usize {
    let mut h = 0;
    for &b in name {
        h = (h * key + b as u64 + 1) % PRIME;
    }
    (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize
}

/// The first key of [`keyed_hash`] in every check.
const FIXED_KEY: u64 = 0x9E37_79B1;

/// A key of [`keyed_hash`] from the platform's random bytes, for names
/// that collide under [`FIXED_KEY`]; `None` when the platform has none.
fn random_key() -> Option<u64> {
    #[cfg(test)]
    if tests::NO_RANDOM.with(core::cell::Cell::get) {
        return None;
    }
    let mut bytes = [0; 8];
    crate::sys::random_bytes(&mut bytes).ok()?;
    Some((1 << 16) + u64::from_le_bytes(bytes) % (PRIME - (1 << 16)))
}

/// Bytes in a slot of [`duplicates`]' table: a `u32` (wasm32 memory, and
/// any line a host reads, is below 4 GiB).
const SLOT: usize = 4;

#[cfg(test)]
mod tests {
    extern crate std;

    use alloc::string::String;
    use core::cell::Cell;

    use super::*;

    std::thread_local! {
        /// Slots [`duplicates`] went past, taken: names compared beyond the first.
        pub(super) static PROBES: Cell<usize> = const { Cell::new(0) };
        /// Set: [`random_key`] finds no random bytes, as on a platform without them.
        pub(super) static NO_RANDOM: Cell<bool> = const { Cell::new(false) };
    }

    /// The slots the check of `value` goes past, on this thread.
    fn probes(value: &str) -> usize {
        PROBES.with(|p| p.set(0));
        assert_eq!(walk(value.as_bytes(), true, MAX_VALUE_DEPTH).err().map(Text::into_string), None);
        PROBES.with(Cell::get)
    }

    /// Review 99: names alike but for their last characters, and names made
    /// to share the fixed hash the check had, each took it a probe per
    /// member before them (32,768 `item-NNNNN` ran out of time in a
    /// module). Mixed, a member costs about a probe; names made to share
    /// the fixed key's hash, a few, then the same under a random key.
    #[test]
    fn duplicates_are_found_in_time_linear_in_members() {
        let object = |names: &mut dyn Iterator<Item = String>| {
            let members: alloc::vec::Vec<String> = names.map(|n| alloc::format!("\"{n}\":0")).collect();
            alloc::format!("{{{}}}", members.join(","))
        };
        // Every name of fifteen blocks of a pair with one hash has that hash.
        let made = |a: &str, b: &str| {
            object(&mut (0..1usize << 15).map(|i| (0..15).map(|bit| if i >> bit & 1 == 1 { a } else { b }).collect()))
        };
        let n = 1 << 15;
        let alike = object(&mut (0..n).map(|i| alloc::format!("item-{i:05}")));
        // The plain hash's pair (base 257), and the fixed key's.
        assert_eq!(crate::bytes::hash(b"imppge"), crate::bytes::hash(b"gudxoe"));
        assert_eq!(keyed_hash(b"myvhlf", FIXED_KEY), keyed_hash(b"yadbra", FIXED_KEY));
        let alike_probes = probes(&alike);
        assert!(alike_probes < n, "alike: {alike_probes} probes for {n} members");
        for (what, value) in
            [("made for base 257", made("imppge", "gudxoe")), ("made for the fixed key", made("myvhlf", "yadbra"))]
        {
            let probes = probes(&value);
            std::eprintln!("{what}: {probes} probes for {n} members (alike: {alike_probes})");
            // The fixed key's allowance (4 probes a slot, 2 slots a member), then about one a member.
            assert!(probes < 10 * n, "{what}: {probes} probes for {n} members");
        }
        // Without random bytes the check goes on under the fixed key: slow
        // for names made for it, but it ends, and right (review 100: it
        // restarted for ever).
        NO_RANDOM.with(|no| no.set(true));
        let few = object(
            &mut (0..1usize << 11)
                .map(|i| (0..11).map(|bit| if i >> bit & 1 == 1 { "myvhlf" } else { "yadbra" }).collect()),
        );
        let probes = probes(&few);
        NO_RANDOM.with(|no| no.set(false));
        assert!(probes >= (1 << 20), "{probes} probes: the names were made to collide");
        // A duplicate among them is still found.
        let twice = alloc::format!("{},\"item-00007\":1}}", &alike[..alike.len() - 1]);
        assert!(
            walk(twice.as_bytes(), true, MAX_VALUE_DEPTH).unwrap_err().into_string().contains("\"item-00007\" twice")
        );
        let collided = made("myvhlf", "yadbra");
        let twice = alloc::format!("{},\"{}\":1}}", &collided[..collided.len() - 1], "yadbra".repeat(15));
        assert!(
            walk(twice.as_bytes(), true, MAX_VALUE_DEPTH).unwrap_err().into_string().contains("twice in one object")
        );
    }

    fn fault(value: &str, strict: bool) -> Option<String> {
        let why = walk(value.as_bytes(), strict, MAX_VALUE_DEPTH).err().map(Text::into_string);
        let tool = crate::json::parse(b"\"t\"").unwrap().as_str().unwrap();
        let check: Check = if strict { super::strict } else { shape };
        let error = check(value.as_bytes(), tool, MAX_VALUE_DEPTH).err().map(Text::into_string);
        assert_eq!(
            error,
            why.as_ref().map(|why| alloc::format!("tool `t` answered with structuredContent that {why}"))
        );
        why
    }

    #[test]
    fn shape_depth_numbers_and_duplicates() {
        assert_eq!(fault(r#"{"a":1}"#, true), None);
        assert_eq!(
            fault(r#"{"x":"#, false).unwrap(),
            "is not JSON (EOF while parsing a value at byte 5): a JsonWriter needs an end_ for each begin_, a value for each key and valid JSON for each raw; Reply::object writes whole values"
        );
        let deep = alloc::format!("{}{}", "[".repeat(MAX_VALUE_DEPTH), "]".repeat(MAX_VALUE_DEPTH));
        assert_eq!(fault(&deep, false), None);
        let deeper = alloc::format!("{}{}", "[".repeat(MAX_VALUE_DEPTH + 1), "]".repeat(MAX_VALUE_DEPTH + 1));
        assert_eq!(
            fault(&deeper, false).unwrap(),
            "nests arrays and objects deeper than 125 levels (at byte 125), which JSON readers refuse"
        );
        assert_eq!(fault(r#"{"a":[1e400]}"#, false), None);
        assert_eq!(
            fault(r#"{"big":-2e400}"#, true).unwrap(),
            "holds the number -2e400 (at byte 7), beyond what an f64 holds, which JSON readers refuse: send it as a string"
        );
        assert_eq!(fault(r#"{"a":[1.7976931348623157e308, -1e-400, 1e308]}"#, true), None);
        let twice = |at: usize, key: &str| {
            alloc::format!("has the member {key} twice in one object (at byte {at}), which strict JSON readers refuse")
        };
        assert_eq!(fault(r#"{"a":1,"b":{"a":2},"a":3}"#, true), Some(twice(19, r#""a""#)));
        assert_eq!(fault(r#"{"a":1,"\u0061":2}"#, true), Some(twice(7, r#""\u0061""#)));
        assert_eq!(fault(r#"[{"x":1},{"x":2,"y":{"z":1,"z":2}}]"#, true), Some(twice(27, r#""z""#)));
        assert_eq!(fault(r#"{"a":1,"a":2}"#, false), None);
    }

    #[test]
    fn many_members_are_checked_in_one_pass() {
        let mut doc = String::from("{");
        for k in (0..20_000).rev() {
            doc.push_str(&alloc::format!("\"k{k}\":{k},"));
        }
        doc.push_str("\"k\\u0031999\":0}");
        let at = doc.find("\"k\\u0031").unwrap();
        assert!(fault(&doc, true).unwrap().contains(&alloc::format!("(at byte {at})")));
        assert_eq!(fault(&doc.replace("u0031999", "u0031999x"), true), None);
    }
}
