//! Manifest rows against the published schema.

use serde_json::Value;

/// A validator for the published manifest-row schema.
pub fn manifest_validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(geomrender::output::manifest::SCHEMA)
        .expect("the manifest schema is JSON");
    jsonschema::validator_for(&schema).expect("the manifest schema is a valid JSON Schema")
}

/// Asserts that `row` matches the manifest schema, listing every error.
pub fn assert_manifest_row(validator: &jsonschema::Validator, row: &Value) {
    let errors: Vec<String> = validator.iter_errors(row).map(|e| e.to_string()).collect();
    assert!(
        errors.is_empty(),
        "row does not match the manifest schema:\n{row}\n{}",
        errors.join("\n")
    );
}
