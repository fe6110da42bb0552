//! The catalogues the bindings export (forms, name-based algorithms, v7 methods, layouts) are
//! what the functions that take those names accept.

use uuidx_core::encoding::Encoding;
use uuidx_core::generator::V7Method;
use uuidx_core::layout::{Layout, LAYOUTS};
use uuidx_core::name::Algorithm;
use uuidx_core::Uuid;

#[test]
fn every_catalogued_name_is_accepted() {
    for e in Encoding::ALL {
        assert_eq!(Encoding::from_name(e.form().name).unwrap(), e);
    }
    for name in Algorithm::NAMES {
        assert_eq!(Algorithm::for_v8(name).unwrap().name(), name);
    }
    for method in V7Method::ALL {
        assert_eq!(V7Method::from_name(method.name(), None).unwrap(), method);
    }
    assert_eq!(V7Method::ALL[0], V7Method::DEFAULT);
}

#[test]
fn each_version_has_its_layout() {
    for layout in LAYOUTS {
        let u = match layout.version {
            Some(v) => Uuid::with_version(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef, v),
            None if layout.name == "nil" => Uuid::NIL,
            None => Uuid::MAX,
        };
        assert_eq!(Layout::of(u).unwrap(), layout);
    }
}
