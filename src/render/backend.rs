//! Which backend draws: `auto` takes a hardware GPU when there is one and the direct
//! CPU rasteriser otherwise (on a software adapter such as lavapipe the CPU is the
//! faster path); `gpu`, `cpu` and `resvg` (the reference) force one.

#[cfg(feature = "gpu")]
use super::gpu::survey;

/// What the user asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Requested {
    #[default]
    Auto,
    #[cfg(feature = "gpu")]
    Gpu,
    Cpu,
    Resvg,
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
pub fn decide(requested: Requested) -> Decision {
    match requested {
        #[cfg(feature = "gpu")]
        Requested::Gpu => Decision {
            kind: BackendKind::Gpu,
            reason: "--backend gpu".into(),
        },
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
    }
}
