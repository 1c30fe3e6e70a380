//! A module's shape as Subako's upload sees it, read by hand.

/// The import, export, memory and custom sections of a module, read by hand.
pub struct Shape {
    pub imports: Vec<(String, String)>,
    pub exports: Vec<String>,
    pub initial_pages: Option<u64>,
    /// Custom sections' names.
    pub custom: Vec<String>,
}

impl Shape {
    /// Reads `b`, a core module; panics if it is not one.
    pub fn read(b: &[u8]) -> Shape {
        assert_eq!(&b[..8], b"\0asm\x01\0\0\0", "not a core WebAssembly module");
        let mut shape = Shape { imports: Vec::new(), exports: Vec::new(), initial_pages: None, custom: Vec::new() };
        let mut at = 8;
        while at < b.len() {
            let id = b[at];
            let (size, start) = leb(b, at + 1);
            let end = start + size as usize;
            let mut i = start;
            match id {
                0 => shape.custom.push(name(b, i).0),
                2 => {
                    let (count, next) = leb(b, i);
                    i = next;
                    for _ in 0..count {
                        let (module, next) = name(b, i);
                        let (field, next) = name(b, next);
                        let kind = b[next];
                        i = next + 1;
                        match kind {
                            0 => i = leb(b, i).1,
                            1 => i = limits(b, i + 1).1,
                            2 => {
                                let (min, next) = limits(b, i);
                                shape.initial_pages = Some(min);
                                i = next;
                            }
                            3 => i += 2,
                            _ => i = leb(b, i + 1).1,
                        }
                        shape.imports.push((module, field));
                    }
                }
                5 => {
                    let (count, next) = leb(b, i);
                    if count > 0 {
                        shape.initial_pages = Some(limits(b, next).0);
                    }
                }
                7 => {
                    let (count, next) = leb(b, i);
                    i = next;
                    for _ in 0..count {
                        let (field, next) = name(b, i);
                        i = leb(b, next + 1).1;
                        shape.exports.push(field);
                    }
                }
                _ => {}
            }
            at = end;
        }
        shape
    }
}

fn leb(b: &[u8], mut i: usize) -> (u64, usize) {
    let (mut value, mut shift) = (0u64, 0);
    loop {
        let byte = b[i];
        i += 1;
        value |= u64::from(byte & 0x7f) << shift;
        shift += 7;
        if byte < 0x80 {
            return (value, i);
        }
    }
}

fn name(b: &[u8], i: usize) -> (String, usize) {
    let (len, start) = leb(b, i);
    let end = start + len as usize;
    (String::from_utf8_lossy(&b[start..end]).into_owned(), end)
}

/// A memory's limits: (minimum, index after them).
fn limits(b: &[u8], i: usize) -> (u64, usize) {
    let flags = b[i];
    let (min, mut i) = leb(b, i + 1);
    if flags & 1 != 0 {
        i = leb(b, i).1;
    }
    (min, i)
}
