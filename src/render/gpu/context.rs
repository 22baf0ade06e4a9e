//! Headless adapter and device selection, honouring wgpu's environment variables.
//!
//! - `WGPU_BACKEND` (e.g. `vulkan`, `gl`) limits the backends searched,
//! - `WGPU_ADAPTER_NAME` picks the first adapter whose name contains it
//!   (case-insensitive),
//! - `WGPU_POWER_PREF=low` prefers integrated over discrete GPUs.
//!
//! Otherwise hardware beats software, and Vulkan/Metal/DX12 beat GL.

use super::GpuError;
use std::sync::{Arc, Mutex};

/// What is known about one adapter, for `doctor` and for manifests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterSummary {
    pub name: String,
    /// `vulkan`, `gl`, `metal`, `dx12`.
    pub api: String,
    /// `discrete`, `integrated`, `virtual`, `cpu`, `other`.
    pub device_type: String,
    pub driver: String,
    /// Runs on real GPU hardware (not lavapipe / llvmpipe / WARP).
    pub hardware: bool,
}

impl AdapterSummary {
    fn from_info(info: &wgpu::AdapterInfo) -> Self {
        let device_type = match info.device_type {
            wgpu::DeviceType::DiscreteGpu => "discrete",
            wgpu::DeviceType::IntegratedGpu => "integrated",
            wgpu::DeviceType::VirtualGpu => "virtual",
            wgpu::DeviceType::Cpu => "cpu",
            wgpu::DeviceType::Other => "other",
        };
        let name = info.name.to_lowercase();
        let software = [
            "llvmpipe",
            "lavapipe",
            "softpipe",
            "swiftshader",
            "warp",
            "basic render",
        ]
        .iter()
        .any(|s| name.contains(s));
        AdapterSummary {
            name: info.name.clone(),
            api: info.backend.to_str().to_string(),
            device_type: device_type.to_string(),
            driver: format!("{} {}", info.driver, info.driver_info)
                .trim()
                .to_string(),
            hardware: !software
                && matches!(
                    info.device_type,
                    wgpu::DeviceType::DiscreteGpu
                        | wgpu::DeviceType::IntegratedGpu
                        | wgpu::DeviceType::VirtualGpu
                ),
        }
    }

    /// `"<name> (<api>)"`, the `backend` column of manifests.
    pub fn label(&self) -> String {
        format!("{} ({})", self.name, self.api)
    }
}

/// Every adapter the environment allows, and the one that would be used with the reason.
pub(crate) struct AdapterReport {
    pub adapters: Vec<AdapterSummary>,
    /// Index into `adapters`.
    pub chosen: Option<usize>,
    pub reason: String,
}

/// Lists adapters and explains the choice, without creating a device.
pub(crate) fn survey() -> AdapterReport {
    let (_, summaries) = adapters(&instance());
    match choose(&summaries) {
        Ok((i, reason)) => AdapterReport {
            adapters: summaries,
            chosen: Some(i),
            reason,
        },
        Err(e) => AdapterReport {
            adapters: summaries,
            chosen: None,
            reason: e.to_string(),
        },
    }
}

/// Every adapter of every backend, with its summary (same order).
fn adapters(instance: &wgpu::Instance) -> (Vec<wgpu::Adapter>, Vec<AdapterSummary>) {
    let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
    let summaries = adapters
        .iter()
        .map(|a| AdapterSummary::from_info(&a.get_info()))
        .collect();
    (adapters, summaries)
}

fn instance() -> wgpu::Instance {
    wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env())
}

/// Picks an adapter index by the rules in the module docs.
fn choose(adapters: &[AdapterSummary]) -> Result<(usize, String), GpuError> {
    if adapters.is_empty() {
        // wgpu reads WGPU_BACKEND; a name it does not know selects nothing.
        if let Ok(wanted) = std::env::var("WGPU_BACKEND") {
            return Err(GpuError::NoAdapterForBackend { wanted });
        }
        return Err(GpuError::NoAdapter);
    }
    if let Ok(wanted) = std::env::var("WGPU_ADAPTER_NAME") {
        let w = wanted.to_lowercase();
        return adapters
            .iter()
            .position(|a| a.name.to_lowercase().contains(&w))
            .map(|i| (i, format!("WGPU_ADAPTER_NAME={wanted:?} matches it")))
            .ok_or_else(|| GpuError::AdapterNotFound {
                wanted,
                available: adapters.iter().map(AdapterSummary::label).collect(),
            });
    }
    let low_power = wgpu::PowerPreference::from_env() == Some(wgpu::PowerPreference::LowPower);
    let rank = |a: &AdapterSummary| {
        let kind = match (a.device_type.as_str(), low_power) {
            ("discrete", false) | ("integrated", true) => 0,
            ("discrete", true) | ("integrated", false) => 1,
            ("virtual", _) => 2,
            ("cpu", _) => 3,
            _ => 4,
        };
        let api = match a.api.as_str() {
            "vulkan" | "metal" | "dx12" => 0,
            _ => 1,
        };
        (kind, api)
    };
    let best = (0..adapters.len())
        .min_by_key(|&i| rank(&adapters[i]))
        .expect("non-empty");
    let a = &adapters[best];
    let why = if a.hardware {
        format!(
            "the best hardware adapter ({} GPU, {})",
            a.device_type, a.api
        )
    } else {
        format!("no hardware GPU found; {} is a software renderer", a.name)
    };
    Ok((best, why))
}

/// A device and queue on the chosen adapter, plus the errors wgpu reported since the last check.
pub(super) struct GpuContext {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub adapter: AdapterSummary,
    pub max_texture_size: u32,
    errors: Arc<Mutex<Vec<String>>>,
}

impl GpuContext {
    /// Opens the adapter that [`survey`] would choose.
    pub(super) fn new() -> Result<Self, GpuError> {
        let instance = instance();
        let (adapters, summaries) = adapters(&instance);
        let (index, _) = choose(&summaries)?;
        let adapter = &adapters[index];
        let limits = adapter.limits();
        let required_limits = wgpu::Limits {
            max_texture_dimension_2d: limits.max_texture_dimension_2d,
            max_buffer_size: limits.max_buffer_size,
            ..wgpu::Limits::downlevel_defaults()
        };
        let (device, queue) =
            pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
                label: Some("geomrender"),
                required_features: wgpu::Features::empty(),
                required_limits,
                memory_hints: wgpu::MemoryHints::Performance,
                ..Default::default()
            }))?;
        let errors = Arc::new(Mutex::new(Vec::new()));
        let sink = errors.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            sink.lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(e.to_string());
        }));
        Ok(GpuContext {
            device,
            queue,
            adapter: summaries[index].clone(),
            max_texture_size: limits.max_texture_dimension_2d,
            errors,
        })
    }

    /// Fails with the first error wgpu reported since the last call.
    pub(super) fn check(&self) -> Result<(), GpuError> {
        let mut errors = self.errors.lock().unwrap_or_else(|p| p.into_inner());
        match errors.drain(..).next() {
            Some(e) => Err(GpuError::Wgpu(e)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(name: &str, device_type: &str, api: &str) -> AdapterSummary {
        AdapterSummary {
            name: name.into(),
            api: api.into(),
            device_type: device_type.into(),
            driver: String::new(),
            hardware: device_type != "cpu",
        }
    }

    #[test]
    fn prefers_hardware_then_modern_apis() {
        // Only meaningful without these variables; CI does not set them.
        if std::env::var_os("WGPU_ADAPTER_NAME").is_some()
            || std::env::var_os("WGPU_POWER_PREF").is_some()
        {
            return;
        }
        let list = [
            summary("llvmpipe", "cpu", "gl"),
            summary("lavapipe", "cpu", "vulkan"),
            summary("RTX", "discrete", "vulkan"),
        ];
        assert_eq!(choose(&list).unwrap().0, 2);
        assert_eq!(choose(&list[..2]).unwrap().0, 1);
        assert!(matches!(choose(&[]), Err(GpuError::NoAdapter)));
    }
}
