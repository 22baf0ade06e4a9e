//! Which backend draws: `auto` takes a hardware GPU when there is one and the direct
//! CPU rasteriser otherwise (on a software adapter such as lavapipe the CPU is the
//! faster path); `gpu`, `cpu` and `resvg` (the reference) force one.

#[cfg(feature = "gpu")]
use super::gpu::survey;

/// What the user asked for (`--backend`, the Python package's `backend=`, a run
/// record's `backend_arg`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Requested {
    /// A hardware GPU adapter when present, else the CPU.
    #[default]
    Auto,
    /// wgpu on the adapter `doctor` names (hardware, lavapipe or llvmpipe); in a
    /// build with the `gpu` cargo feature.
    Gpu,
    /// The direct CPU rasteriser (tiny-skia, cached glyph masks), in parallel.
    Cpu,
    /// resvg on each Scene's SVG, in parallel: the reference the others are checked against.
    Resvg,
}

crate::words!(Requested, "backend", {
    Auto => "auto",
    Gpu => "gpu",
    Cpu => "cpu",
    Resvg => "resvg",
});

/// Why a requested backend cannot draw in this build.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BackendError {
    /// `gpu` asked of a build without the `gpu` cargo feature.
    #[error(
        "--backend gpu: this geomrender was built without the `gpu` cargo feature (wgpu), so \
         it draws with the CPU rasteriser only; build it with `cargo build --release \
         --features gpu` (or `cargo run --release --features gpu -- …`)"
    )]
    NoGpuFeature,
}

/// What will draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendKind {
    #[cfg(feature = "gpu")]
    Gpu,
    /// The direct rasteriser.
    Cpu,
    /// resvg on the Scene's SVG.
    Resvg,
}

/// The backend chosen, and why (for `doctor` and logs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub kind: BackendKind,
    pub reason: String,
}

/// Resolves `requested`; `auto` looks at the adapters without opening a device.
/// `gpu` in a build without the `gpu` feature is an error that says how to get one.
pub(crate) fn decide(requested: Requested) -> Result<Decision, BackendError> {
    Ok(match requested {
        #[cfg(feature = "gpu")]
        Requested::Gpu => Decision {
            kind: BackendKind::Gpu,
            reason: "--backend gpu".into(),
        },
        #[cfg(not(feature = "gpu"))]
        Requested::Gpu => return Err(BackendError::NoGpuFeature),
        Requested::Cpu => Decision {
            kind: BackendKind::Cpu,
            reason: "--backend cpu".into(),
        },
        Requested::Resvg => Decision {
            kind: BackendKind::Resvg,
            reason: "--backend resvg".into(),
        },
        #[cfg(not(feature = "gpu"))]
        Requested::Auto => Decision {
            kind: BackendKind::Cpu,
            reason: "built without the `gpu` feature".into(),
        },
        #[cfg(feature = "gpu")]
        Requested::Auto => {
            let report = survey();
            match report.chosen.map(|i| &report.adapters[i]) {
                Some(a) if a.hardware => Decision {
                    kind: BackendKind::Gpu,
                    reason: format!("hardware GPU adapter {}", a.label()),
                },
                Some(a) => Decision {
                    kind: BackendKind::Cpu,
                    reason: format!(
                        "the best adapter, {}, is a software renderer; the CPU rasteriser is faster there (--backend gpu uses it anyway)",
                        a.label()
                    ),
                },
                None => Decision {
                    kind: BackendKind::Cpu,
                    reason: format!("no GPU adapter ({})", report.reason),
                },
            }
        }
    })
}
