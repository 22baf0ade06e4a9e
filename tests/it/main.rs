//! The integration tests: one binary, one module per area.

mod batch;
mod cli;
mod pixels;
mod reference;
mod shaders;
mod support;
