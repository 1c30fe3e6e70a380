//! Exp-Golomb codes, least significant bit of each byte first: what
//! `src/bits.rs` reads. The table generators (`tests/case.rs`,
//! `tests/chars.rs`) write with it.

#[derive(Default)]
pub struct BitWriter {
    pub bytes: Vec<u8>,
    pub len: usize,
}

#[allow(dead_code)]
impl BitWriter {
    pub fn bit(&mut self, b: bool) {
        if self.len.is_multiple_of(8) {
            self.bytes.push(0);
        }
        if b {
            *self.bytes.last_mut().unwrap() |= 1 << (self.len % 8);
        }
        self.len += 1;
    }

    /// `v` as `src/bits.rs`'s `number` reads it: `z` zeros, a one (the
    /// top bit of `v + 2^k`), then its `z + k` lower bits, least
    /// significant first.
    pub fn number(&mut self, v: u64, k: u32) {
        let w = v + (1 << k);
        let n = 64 - w.leading_zeros();
        for _ in 0..n - 1 - k {
            self.bit(false);
        }
        self.bit(true);
        for i in 0..n - 1 {
            self.bit(w >> i & 1 == 1);
        }
    }

    /// A sign bit (1: negative), then the magnitude.
    pub fn signed(&mut self, v: i64, k: u32) {
        self.bit(v < 0);
        self.number(v.unsigned_abs(), k);
    }

    /// Zero bits up to the next byte.
    pub fn align(&mut self) {
        self.len = self.bytes.len() * 8;
    }

    /// The stream, and eight bytes of ones after it, so that every code is
    /// read from one eight-byte window.
    pub fn finish(mut self) -> Vec<u8> {
        self.bytes.extend([0xFF; 8]);
        self.bytes
    }
}

/// `data` as the body of a `static NAME: [u8; N]`, sixteen bytes a line.
#[allow(dead_code)]
pub fn byte_table(name: &str, doc: &str, data: &[u8]) -> String {
    let mut s = format!("{doc}\n#[rustfmt::skip]\npub(super) static {name}: [u8; {}] = [\n", data.len());
    for line in data.chunks(16) {
        s += "   ";
        for b in line {
            s += &format!(" 0x{b:02X},");
        }
        s += "\n";
    }
    s + "];\n"
}

/// Holds the generated file `rel` (from the crate's root) to `made`, what
/// this toolchain's std gives; with `SUBAKO_WRITE_TABLES` set, writes it
/// instead. `test` is the test file that makes it, for the message.
#[allow(dead_code)]
pub fn write_or_check(rel: &str, made: &str, test: &str) {
    let path = format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("SUBAKO_WRITE_TABLES").is_some() {
        std::fs::write(&path, made).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap();
    assert!(
        committed == made,
        "{rel} is not what this toolchain's std gives: write it again with \
         `SUBAKO_WRITE_TABLES=1 cargo test -p subako-tiny --test {test} tables`"
    );
}
