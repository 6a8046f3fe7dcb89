//! The list of every op: adding an op is one folder plus one line here.
//!
//! Each line names the op's module and type; `kernel` marks the ops whose folder has a CubeCL kernel
//! (`cube.rs`), which device executors find through [`cube_kernel`].

pub use vqgraph_graph::OpInfo;

macro_rules! registry {
    ($($module:ident :: $ty:ident $([$kernel:ident])?),* $(,)?) => {
        /// Every op of this crate.
        pub const REGISTRY: &[OpInfo] = &[$(crate::$module::INFO),*];

        /// The CubeCL kernel of an op, if its kind has one (found by downcasting the op to its type).
        #[cfg(feature = "cube")]
        pub fn cube_kernel<R: cubecl::Runtime>(op: &dyn vqgraph_graph::Op)
            -> Option<&dyn crate::kernel::CubeKernel<R>>
        {
            let any = op.as_any();
            $($(
                registry!(@$kernel);
                if let Some(k) = any.downcast_ref::<crate::$module::$ty>() {
                    return Some(k);
                }
            )?)*
            None
        }
    };
    (@kernel) => {};
}

#[rustfmt::skip]
registry! {
    sep_conv::SepConv [kernel],
    decimate::Decimate [kernel],
    sq_err_sum::SqErrSum [kernel],
    diff::Diff [kernel],
    abs_sum::AbsSum [kernel],
    frame_delay::FrameDelay [kernel],
    vif_stats::VifStats,
    adm_dwt::AdmDwt [kernel],
    adm_decouple::AdmDecouple,
    adm_csf::AdmCsf [kernel],
    adm_cm::AdmCm [kernel],
    adm_csf_den::AdmCsfDen [kernel],
}

/// Looks an op up by name.
pub fn lookup(name: &str) -> Option<&'static OpInfo> {
    REGISTRY.iter().find(|i| i.name == name)
}
