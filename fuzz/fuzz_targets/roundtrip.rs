//! roundtrip: a schema (one of the fixed ones, or one built from the input) and a value
//! built from the input for it. A value that fits (what the JS layer accepts) must encode,
//! decode to the same value and encode again to the same bytes, and under a small decode
//! budget (chosen by the input's next byte) decode to the same value or fail with
//! ERR_SHORN_LIMIT; one that does not fit may fail to encode, and whatever bytes shorn's
//! own marshaller writes for it must decode cleanly (fuzz/src/lib.rs).
#![no_main]

use libfuzzer_sys::fuzz_target;
use shorn::program::Limits;
use shorn::schema::Schema;
use shorn::value::encode_value;
use shorn_fuzz::{
    cases, check_decode, check_roundtrip, gen_budget, gen_descriptor, gen_limits, gen_value,
    value_depth, Gen, Model,
};

fuzz_target!(|data: &[u8]| {
    let mut g = Gen::new(data);
    let pick = g.byte() as usize;
    let cases = cases();
    // 0..192: a fixed schema; 192..256: a schema built from the input.
    // Encode enforces only maxDepth; the other limits are for decode.
    let (text, schema) = if pick < 192 {
        let case = &cases[pick % cases.len()];
        let limits = Limits {
            max_depth: case.limits.max_depth,
            ..Limits::default()
        };
        let schema = Schema::compile(&case.descriptor, limits).expect("a fixed schema compiles");
        (case.descriptor.clone(), schema)
    } else {
        let limits = gen_limits(&mut g);
        let limits = Limits {
            max_depth: limits.max_depth,
            ..Limits::default()
        };
        let text = gen_descriptor(&mut g).text;
        match Schema::compile(&text, limits) {
            Ok(schema) => (text, schema),
            Err(_) => return,
        }
    };
    let model = Model::new(&schema);
    let value = gen_value(&mut g, &model, &schema.root, 0);
    let fits = model.fits(&schema.root, &value, 0);
    if model.gave_up() {
        return;
    }
    if fits {
        // One byte past the value: now and then the same schema under a small budget.
        let budgeted = match g.byte() % 4 {
            1 => Schema::compile(
                &text,
                Limits {
                    max_decoded_bytes: gen_budget(&mut g),
                    ..schema.program.limits
                },
            )
            .ok(),
            _ => None,
        };
        check_roundtrip(&schema, &value, budgeted.as_ref());
    } else if schema.defs.is_empty() && value_depth(&value) <= 32 {
        // (shorn::value's marshaller is a test stand-in with no depth limit: a misfit value
        // of `recursive('A', nullable(ref A))` recurses in it until the stack overflows.
        // The JS marshallers stop at maxDepth; the core's engine never sees such a tape.)
        let Ok(bytes) = encode_value(&schema, &value) else {
            return;
        };
        // The JS layer would have refused it; the core must still not write bytes that
        // break a decoder.
        check_decode(&schema, &bytes);
    }
});
