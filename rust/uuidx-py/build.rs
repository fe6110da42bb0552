//! Exposes the target interpreter's configuration (`Py_GIL_DISABLED`, `PyPy`, `Py_3_x`, ...) to
//! `#[cfg]` in the bindings, as pyo3 itself sees it; and, on Windows, the DLL that pyo3 links
//! by `raw-dylib` (`uuidx_dll = "python313"`, ...), so that the bindings' own declarations of
//! interpreter functions that pyo3 does not declare link to the same DLL.
fn main() {
    pyo3_build_config::use_pyo3_cfgs();
    // Every name `ffi/int_digits.rs` may link (the CPython versions before 3.14 with a
    // private declaration), for check-cfg.
    let names = [
        "python39",
        "python310",
        "python311",
        "python312",
        "python313",
        "python313t",
    ];
    let values: Vec<String> = names
        .iter()
        .flat_map(|n| [format!("\"{n}\""), format!("\"{n}_d\"")])
        .collect();
    println!(
        "cargo:rustc-check-cfg=cfg(uuidx_dll, values({}))",
        values.join(", ")
    );
    println!("cargo:rerun-if-env-changed=PYO3_USE_RAW_DYLIB");
    // pyo3-ffi links the interpreter's DLL by raw-dylib, with no import library, unless
    // PYO3_USE_RAW_DYLIB is set to anything but 1 (then it links `python3XY.lib`, which
    // resolves every symbol of the DLL, ours included).
    let windows = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "windows");
    let raw_dylib = std::env::var("PYO3_USE_RAW_DYLIB").map_or(true, |v| v == "1");
    if windows && raw_dylib {
        if let Some(lib) = pyo3_build_config::get().lib_name() {
            if names
                .iter()
                .any(|n| lib == *n || lib.strip_suffix("_d") == Some(n))
            {
                println!("cargo:rustc-cfg=uuidx_dll=\"{lib}\"");
            }
        }
    }
}
