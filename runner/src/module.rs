//! The parts of a WebAssembly module as `size` reads them: its sections,
//! the functions it defines and its data segments.

/// One section: `id` 0 is a custom section, `name` its own name then.
/// `offset`/`size`: its payload (after the id and size) in the file.
#[derive(Debug, Clone)]
pub struct Section {
    pub id: u8,
    pub name: String,
    pub custom: bool,
    pub offset: usize,
    pub size: usize,
}

/// One function defined by the module, in code-section order (`index`).
/// `offset`/`size`: the body with its length prefix, as the code section holds it.
#[derive(Debug, Clone)]
pub struct Func {
    pub index: usize,
    pub func_index: usize,
    pub offset: usize,
    pub size: usize,
    /// The name section's name, if there is one.
    pub symbol: Option<String>,
    /// Demangled, hash dropped; `func[N]` without a name section.
    pub name: String,
    pub owner: String,
}

#[derive(Debug, Clone)]
pub struct DataSegment {
    pub index: usize,
    pub size: usize,
    pub name: Option<String>,
}
