//! compile: the input as descriptor text, and a descriptor built from the input
//! (`gen_descriptor`), each with limits chosen by the input (a small decode budget
//! among them). Compile must give a schema or ERR_SHORN_SCHEMA; it must refuse every
//! schema where a value has two encodings (findings 001 and 002: `two_encodings`, and
//! whatever the generator wrote on purpose); a schema then decodes a few messages (the
//! rest of the input among them) under the same checks as the decode target.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shorn::program::Limits;
use shorn::schema::Schema;
use shorn_fuzz::{check_decode, gen_descriptor, gen_limits, two_encodings, Gen};

fn compile_and_decode(text: &str, limits: Limits, messages: &[&[u8]], refused: bool) {
    match Schema::compile(text, limits) {
        Ok(schema) => {
            assert!(
                !refused,
                "{text:?} compiled, but it has a value with two encodings"
            );
            if let Some(what) = two_encodings(&schema) {
                panic!("{text:?} compiled, but it has {what} (a value with two encodings)");
            }
            for m in messages {
                check_decode(&schema, m);
            }
        }
        Err(e) => assert_eq!(e.code(), "ERR_SHORN_SCHEMA", "{text:?}: {e}"),
    }
}

const SMALL: [&[u8]; 4] = [&[], &[0], &[1], &[1, 0]];

fuzz_target!(|data: &[u8]| {
    // The raw text (lossy: descriptors arrive from JS as strings).
    let text = String::from_utf8_lossy(data);
    compile_and_decode(&text, Limits::default(), &SMALL[1..3], false);

    // A structured descriptor; what the generator leaves is a message.
    let mut g = Gen::new(data);
    let limits = gen_limits(&mut g);
    let descriptor = gen_descriptor(&mut g);
    let rest = g.rest();
    let mut messages = SMALL.to_vec();
    messages.push(rest);
    compile_and_decode(
        &descriptor.text,
        limits,
        &messages,
        descriptor.two_encodings,
    );
});
