//! Version 8: custom ([RFC 9562 §5.8](https://www.rfc-editor.org/rfc/rfc9562#section-5.8)).
//!
//! ```text
//! custom_a (48) | ver (4) | custom_b (12) | var (2) | custom_c (62)
//! ```
//!
//! Name-based version 8 UUIDs ([Appendix B.2](https://www.rfc-editor.org/rfc/rfc9562#appendix-B.2)) are built in [`crate::name`].

use super::{shaped_fields, Field, Layout};
use crate::Result;
use crate::Uuid;

/// The layout of version 8, as the RFC's figure draws it.
pub const LAYOUT: Layout = Layout::new(
    "v8",
    Some(8),
    "Version 8, custom (RFC 9562 §5.8).",
    &FIELDS_LAID_OUT,
);

const FIELDS_LAID_OUT: [Field; 5] = shaped_fields(["custom_a", "custom_b", "custom_c"]);

/// The arguments of [`new`]: names and widths in bits.
pub const FIELDS: [super::FieldSpec; 3] = super::shaped(&LAYOUT);

/// Builds a version 8 UUID from 48, 12 and 62 bits of custom data ([RFC 9562 §5.8](https://www.rfc-editor.org/rfc/rfc9562#section-5.8)).
///
/// # Errors
/// [`crate::ErrorKind::FieldOutOfRange`] when a field does not fit its width.
///
/// # Examples
/// ```
/// // RFC 9562 Appendix B.1.
/// let u = uuidx_core::layout::v8::new(0x2489E9AD2EE2, 0xE00, 0x0EC932D5F69181C0).unwrap();
/// assert_eq!(u.to_string(), "2489e9ad-2ee2-8e00-8ec9-32d5f69181c0");
/// ```
pub fn new(custom_a: u64, custom_b: u64, custom_c: u64) -> Result<Uuid> {
    super::join_checked(8, &FIELDS, custom_a, custom_b, custom_c)
}

/// Builds a version 8 UUID from the low 48, 12 and 62 bits of each value, the semantics of
/// Python 3.14's `uuid.uuid8(a, b, c)`, which truncates silently.
#[inline]
pub const fn new_truncated(custom_a: u64, custom_b: u64, custom_c: u64) -> Uuid {
    super::join(8, custom_a, (custom_b & 0xFFF) as u16, custom_c)
}
