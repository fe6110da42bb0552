//! An `ArrowSchema` from a producer that uuidx does not trust, checked whole (every string,
//! metadata entry, child and dictionary), then converted by arrow-rs to a `Field`
//! ([`import_field`]). Part of the Arrow import ([`super::arrow_import`], whose walk and panic
//! guard it uses); like it, std and arrow-rs only, compiled by the fuzz target too.
//!
//! Invariants:
//! I1. (the callers' promise: the `# Safety` sections) every non-NULL pointer of a schema
//!     points to memory readable for what the schema declares: a string up to its NUL, a
//!     `children` array of `n_children` entries, metadata as its own lengths say; and the schema
//!     stays unchanged for the call;
//! I2. a pointer is read through only once it is checked non-NULL, the `children` array only
//!     below `n_children`, checked to be non-negative and at most [`MAX_NODES`], and metadata
//!     only below positions checked against [`MAX_METADATA_BYTES`];
//! I3. the walk over the children and dictionaries is bounded (the import's I1): a cycle or a
//!     huge tree is an error;
//! I4. arrow-rs converts a schema only once all of it is checked (every string non-NULL where
//!     required and UTF-8, metadata well formed with at most [`MAX_METADATA_ENTRIES`] entries,
//!     the children each format has, no child or dictionary released), inside the import's
//!     panic guard (its I2).
//!
//! Tested by `tests/columns/test_arrow_hostile.py` (its schema cases, through arrays and
//! streams, and a requested schema checked like any other) and the fuzz target.

use std::ffi::{c_char, CStr};
use std::fmt;

use arrow_schema::ffi::FFI_ArrowSchema;
use arrow_schema::Field;

use super::arrow_import::{caught, count, invalid, Error, Result, Walk, MAX_NODES};

/// The most entries the metadata of one schema may declare.
pub const MAX_METADATA_ENTRIES: usize = 1 << 16;
/// The most bytes the metadata of one schema may take.
pub const MAX_METADATA_BYTES: usize = 64 << 20;
/// The most bytes of a string of a schema that a message quotes.
const QUOTED: usize = 40;

/// The field that `schema` describes, once every member of it, its children and its
/// dictionary is checked (I2-I4). A released `schema` (`release` NULL) is the caller's to
/// refuse, before calling this.
///
/// # Errors
/// A message naming the member at fault.
///
/// # Safety
/// I1: `schema` and everything it points to is readable as it declares, and stays unchanged
/// for the call.
pub unsafe fn import_field(schema: &FFI_ArrowSchema) -> Result<Field> {
    // SAFETY: I1, the caller's promise.
    unsafe { check_schema(schema, "schema", 0, &mut Walk::default()) }?;
    caught("schema", || {
        Field::try_from(schema).map_err(|e| Error::new(format!("schema: {e}")))
    })
}

/// How many children a schema of `format` has, where the format fixes it.
fn children_of_format(format: &str) -> Option<usize> {
    match format {
        "+l" | "+L" | "+vl" | "+vL" | "+m" => Some(1),
        "+r" => Some(2),
        nested if nested.starts_with("+w:") => Some(1),
        // Structs and unions have any number; arrow-rs refuses the formats it does not know.
        nested if nested.starts_with('+') => None,
        _ => Some(0),
    }
}

/// Checks `schema` at `path` and, recursively, its children and dictionary.
///
/// # Safety
/// I1.
unsafe fn check_schema(
    schema: &FFI_ArrowSchema,
    path: &str,
    depth: usize,
    walk: &mut Walk,
) -> Result<()> {
    walk.enter(path, depth)?;
    // SAFETY: I1, I2: each string is read only if non-NULL.
    let Some(format) = (unsafe { text(schema.format, path, "format") })? else {
        return invalid(format!("{path}.format is NULL"));
    };
    // SAFETY: as above.
    unsafe { text(schema.name, path, "name") }?;
    // SAFETY: I1: metadata, if non-NULL, is readable as its own lengths say.
    unsafe { check_metadata(schema.metadata.cast(), path) }?;
    let n = count(schema.n_children, path, "n_children")?;
    if n > MAX_NODES {
        return invalid(format!(
            "{path}.n_children is {n}, more than the {MAX_NODES} structures uuidx reads"
        ));
    }
    if let Some(expected) = children_of_format(format) {
        if n != expected {
            return invalid(format!(
                "{path}.n_children is {n}, but a schema of format {format:?} has {expected}"
            ));
        }
    }
    if n > 0 && schema.children.is_null() {
        return invalid(format!("{path}.children is NULL, but n_children is {n}"));
    }
    for i in 0..n {
        let child_path = format!("{path}.children[{i}]");
        // SAFETY: I1: `children` holds `n` pointers, and i < n (I2).
        let child = unsafe { schema.children.add(i).read_unaligned() };
        // SAFETY: I1: a non-NULL child points to an initialised `ArrowSchema`.
        let Some(child) = (unsafe { child.as_ref() }) else {
            return invalid(format!("{child_path} is NULL"));
        };
        // SAFETY: I1 for the child.
        unsafe { check_member_schema(child, &child_path, depth + 1, walk) }?;
    }
    // SAFETY: I1: a non-NULL dictionary points to an initialised `ArrowSchema`.
    if let Some(dictionary) = unsafe { schema.dictionary.as_ref() } {
        // SAFETY: I1 for the dictionary.
        unsafe { check_member_schema(dictionary, &format!("{path}.dictionary"), depth + 1, walk) }?;
    }
    Ok(())
}

/// [`check_schema`] for a child or a dictionary, which must not be released.
///
/// # Safety
/// I1.
unsafe fn check_member_schema(
    schema: &FFI_ArrowSchema,
    path: &str,
    depth: usize,
    walk: &mut Walk,
) -> Result<()> {
    if schema.release.is_none() {
        return invalid(format!("{path} is released (its release callback is NULL)"));
    }
    // SAFETY: I1, the caller's promise.
    unsafe { check_schema(schema, path, depth, walk) }
}

/// The string at `p` (`None` for NULL), which must be UTF-8.
///
/// # Safety
/// I1: `p` is NULL or a NUL-terminated string.
unsafe fn text<'a>(p: *const c_char, path: &str, member: &str) -> Result<Option<&'a str>> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: I1, non-NULL (I2).
    let bytes = unsafe { CStr::from_ptr(p) }.to_bytes();
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(Some(text)),
        Err(_) => invalid(format!("{path}.{member} is not UTF-8: {}", quoted(bytes))),
    }
}

/// Checks the metadata at `p` (NULL for none): an `i32` count of entries, then for each a key
/// and a value, each an `i32` length and as many bytes of UTF-8 (native byte order).
///
/// # Safety
/// I1: `p` is NULL or metadata readable as its own lengths say.
unsafe fn check_metadata(p: *const u8, path: &str) -> Result<()> {
    if p.is_null() {
        return Ok(());
    }
    let mut pos = 0usize;
    let length = |pos: &mut usize, what: &dyn fmt::Display| -> Result<usize> {
        // SAFETY: I1: the metadata holds this length; `pos` stays below
        // MAX_METADATA_BYTES + 4, far from overflow.
        let value = unsafe { p.add(*pos).cast::<i32>().read_unaligned() };
        *pos += 4;
        usize::try_from(value)
            .or_else(|_| invalid(format!("{path}.metadata: {what} is negative ({value})")))
    };
    let entries = length(&mut pos, &"the number of entries")?;
    if entries > MAX_METADATA_ENTRIES {
        return invalid(format!(
            "{path}.metadata declares {entries} entries; uuidx reads at most \
             {MAX_METADATA_ENTRIES}"
        ));
    }
    for entry in 0..entries {
        for part in ["key", "value"] {
            let len = length(
                &mut pos,
                &format_args!("the length of the {part} of entry {entry}"),
            )?;
            let start = pos;
            let end = start
                .checked_add(len)
                .filter(|&end| end <= MAX_METADATA_BYTES)
                .ok_or_else(|| {
                    Error::new(format!(
                        "{path}.metadata is longer than the {MAX_METADATA_BYTES} bytes uuidx \
                         reads"
                    ))
                })?;
            // SAFETY: I1: the entry holds `len` bytes at `start`.
            let bytes = unsafe { std::slice::from_raw_parts(p.add(start), len) };
            if std::str::from_utf8(bytes).is_err() {
                return invalid(format!(
                    "{path}.metadata: the {part} of entry {entry} is not UTF-8: {}",
                    quoted(bytes)
                ));
            }
            pos = end;
        }
    }
    Ok(())
}

/// `bytes` as a message quotes them: `b"..."` with escapes, shortened.
fn quoted(bytes: &[u8]) -> String {
    let shown = &bytes[..bytes.len().min(QUOTED)];
    let more = if bytes.len() > QUOTED { "..." } else { "" };
    format!("b\"{}\"{more}", shown.escape_ascii())
}
