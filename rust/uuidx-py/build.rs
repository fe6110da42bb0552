//! Exposes the target interpreter's configuration (`Py_GIL_DISABLED`, `PyPy`, `Py_3_x`, ...) to
//! `#[cfg]` in the bindings, as pyo3 itself sees it.
fn main() {
    pyo3_build_config::use_pyo3_cfgs();
}
