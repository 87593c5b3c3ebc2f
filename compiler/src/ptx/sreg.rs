//! Special registers (PTX ISA chapter 10): spelling, type and availability.

use super::ast::{Dim, SpecialReg};
use super::types::ScalarType;
use crate::targets::PtxVersion;

pub struct SregInfo {
    pub ty: ScalarType,
    pub min_ptx: PtxVersion,
    pub min_sm: u32,
}

/// Parses a special register name (`%tid`, `%laneid`, `%pm3`) and its optional
/// `.x/.y/.z` component. None if the name is not a special register, or
/// Some(Err) if the name is special but the component is wrong.
pub fn parse_sreg(name: &str, dim: Option<&str>) -> Option<Result<SpecialReg, String>> {
    use SpecialReg::*;
    let d = match dim {
        Some("x") => Some(Dim::X),
        Some("y") => Some(Dim::Y),
        Some("z") => Some(Dim::Z),
        Some(other) => {
            return Some(Err(format!("invalid component '.{other}'")))
                .filter(|_| is_sreg_name(name))
        }
        None => None,
    };
    let vector: Option<fn(Dim) -> SpecialReg> = match name {
        "%tid" => Some(Tid),
        "%ntid" => Some(Ntid),
        "%ctaid" => Some(Ctaid),
        "%nctaid" => Some(Nctaid),
        "%clusterid" => Some(ClusterId),
        "%nclusterid" => Some(NclusterId),
        "%cluster_ctaid" => Some(ClusterCtaid),
        "%cluster_nctaid" => Some(ClusterNctaid),
        _ => None,
    };
    if let Some(ctor) = vector {
        return Some(match d {
            Some(d) => Ok(ctor(d)),
            None => Err(format!(
                "special register '{name}' needs a component .x, .y or .z"
            )),
        });
    }
    let scalar = match name {
        "%cluster_ctarank" => ClusterCtarank,
        "%cluster_nctarank" => ClusterNctarank,
        "%is_explicit_cluster" => IsExplicitCluster,
        "%laneid" => Laneid,
        "%warpid" => Warpid,
        "%nwarpid" => Nwarpid,
        "%smid" => Smid,
        "%nsmid" => Nsmid,
        "%gridid" => Gridid,
        "%lanemask_eq" => LanemaskEq,
        "%lanemask_le" => LanemaskLe,
        "%lanemask_lt" => LanemaskLt,
        "%lanemask_ge" => LanemaskGe,
        "%lanemask_gt" => LanemaskGt,
        "%clock" => Clock,
        "%clock_hi" => ClockHi,
        "%clock64" => Clock64,
        "%globaltimer" => Globaltimer,
        "%globaltimer_lo" => GlobaltimerLo,
        "%globaltimer_hi" => GlobaltimerHi,
        "%total_smem_size" => TotalSmemSize,
        "%aggr_smem_size" => AggrSmemSize,
        "%dynamic_smem_size" => DynamicSmemSize,
        "%reserved_smem_offset_begin" => ReservedSmemOffsetBegin,
        "%reserved_smem_offset_end" => ReservedSmemOffsetEnd,
        "%reserved_smem_offset_cap" => ReservedSmemOffsetCap,
        _ => {
            let numbered = |prefix: &str, max: u8| -> Option<u8> {
                let n: u8 = name.strip_prefix(prefix)?.parse().ok()?;
                (n <= max).then_some(n)
            };
            if let Some(n) = numbered("%pm", 7) {
                Pm(n)
            } else if let Some(n) = name.strip_suffix("_64").and_then(|_| {
                name.strip_prefix("%pm")?
                    .strip_suffix("_64")?
                    .parse::<u8>()
                    .ok()
                    .filter(|&n| n <= 7)
            }) {
                Pm64(n)
            } else if let Some(n) = numbered("%envreg", 31) {
                Envreg(n)
            } else {
                return None;
            }
        }
    };
    Some(match d {
        None => Ok(scalar),
        Some(_) => Err(format!("special register '{name}' has no components")),
    })
}

fn is_sreg_name(name: &str) -> bool {
    parse_sreg(name, None).is_some()
}

impl SpecialReg {
    /// The name without component, as written (`%tid`).
    pub fn name(self) -> String {
        use SpecialReg::*;
        match self {
            Tid(_) => "%tid".into(),
            Ntid(_) => "%ntid".into(),
            Ctaid(_) => "%ctaid".into(),
            Nctaid(_) => "%nctaid".into(),
            ClusterId(_) => "%clusterid".into(),
            NclusterId(_) => "%nclusterid".into(),
            ClusterCtaid(_) => "%cluster_ctaid".into(),
            ClusterNctaid(_) => "%cluster_nctaid".into(),
            ClusterCtarank => "%cluster_ctarank".into(),
            ClusterNctarank => "%cluster_nctarank".into(),
            IsExplicitCluster => "%is_explicit_cluster".into(),
            Laneid => "%laneid".into(),
            Warpid => "%warpid".into(),
            Nwarpid => "%nwarpid".into(),
            Smid => "%smid".into(),
            Nsmid => "%nsmid".into(),
            Gridid => "%gridid".into(),
            LanemaskEq => "%lanemask_eq".into(),
            LanemaskLe => "%lanemask_le".into(),
            LanemaskLt => "%lanemask_lt".into(),
            LanemaskGe => "%lanemask_ge".into(),
            LanemaskGt => "%lanemask_gt".into(),
            Clock => "%clock".into(),
            ClockHi => "%clock_hi".into(),
            Clock64 => "%clock64".into(),
            Globaltimer => "%globaltimer".into(),
            GlobaltimerLo => "%globaltimer_lo".into(),
            GlobaltimerHi => "%globaltimer_hi".into(),
            TotalSmemSize => "%total_smem_size".into(),
            AggrSmemSize => "%aggr_smem_size".into(),
            DynamicSmemSize => "%dynamic_smem_size".into(),
            Pm(n) => format!("%pm{n}"),
            Pm64(n) => format!("%pm{n}_64"),
            Envreg(n) => format!("%envreg{n}"),
            ReservedSmemOffsetBegin => "%reserved_smem_offset_begin".into(),
            ReservedSmemOffsetEnd => "%reserved_smem_offset_end".into(),
            ReservedSmemOffsetCap => "%reserved_smem_offset_cap".into(),
        }
    }

    pub fn dim(self) -> Option<Dim> {
        use SpecialReg::*;
        match self {
            Tid(d) | Ntid(d) | Ctaid(d) | Nctaid(d) | ClusterId(d) | NclusterId(d)
            | ClusterCtaid(d) | ClusterNctaid(d) => Some(d),
            _ => None,
        }
    }

    /// Type and availability (PTX ISA chapter 10, per register).
    pub fn info(self) -> SregInfo {
        use SpecialReg::*;
        let (ty, maj, min, sm) = match self {
            // %gridid is .u64 from PTX 3.0 (chapter 10, %gridid).
            Gridid => (ScalarType::U64, 3, 0, 20),
            Tid(_) | Ntid(_) | Ctaid(_) | Nctaid(_) | Laneid | Warpid | Smid => {
                (ScalarType::U32, 1, 0, 0)
            }
            Nwarpid | Nsmid => (ScalarType::U32, 2, 0, 20),
            LanemaskEq | LanemaskLe | LanemaskLt | LanemaskGe | LanemaskGt => {
                (ScalarType::U32, 2, 0, 20)
            }
            Clock => (ScalarType::U32, 1, 0, 0),
            ClockHi => (ScalarType::U32, 5, 0, 20),
            Clock64 => (ScalarType::U64, 2, 0, 20),
            Globaltimer => (ScalarType::U64, 3, 1, 30),
            GlobaltimerLo | GlobaltimerHi => (ScalarType::U32, 3, 1, 30),
            TotalSmemSize => (ScalarType::U32, 4, 1, 20),
            DynamicSmemSize => (ScalarType::U32, 4, 1, 20),
            AggrSmemSize => (ScalarType::U32, 8, 1, 90),
            Pm(_) => (ScalarType::U32, 1, 3, 0),
            Pm64(_) => (ScalarType::U64, 4, 0, 50),
            Envreg(_) => (ScalarType::B32, 2, 1, 0),
            ReservedSmemOffsetBegin | ReservedSmemOffsetEnd | ReservedSmemOffsetCap => {
                (ScalarType::B32, 7, 6, 80)
            }
            ClusterId(_) | NclusterId(_) | ClusterCtaid(_) | ClusterNctaid(_) | ClusterCtarank
            | ClusterNctarank => (ScalarType::U32, 7, 8, 90),
            IsExplicitCluster => (ScalarType::Pred, 7, 8, 90),
        };
        SregInfo {
            ty,
            min_ptx: PtxVersion::new(maj, min),
            min_sm: sm,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_names() {
        let r = parse_sreg("%tid", Some("y")).unwrap().unwrap();
        assert_eq!(r, SpecialReg::Tid(Dim::Y));
        assert_eq!(r.name(), "%tid");
        assert!(parse_sreg("%tid", None).unwrap().is_err());
        assert!(parse_sreg("%laneid", Some("x")).unwrap().is_err());
        assert_eq!(
            parse_sreg("%pm3", None).unwrap().unwrap(),
            SpecialReg::Pm(3)
        );
        assert_eq!(
            parse_sreg("%pm2_64", None).unwrap().unwrap(),
            SpecialReg::Pm64(2)
        );
        assert_eq!(
            parse_sreg("%envreg31", None).unwrap().unwrap(),
            SpecialReg::Envreg(31)
        );
        assert!(parse_sreg("%envreg32", None).is_none());
        assert!(parse_sreg("%r1", None).is_none());
        for name in [
            "%clock64",
            "%globaltimer",
            "%dynamic_smem_size",
            "%lanemask_lt",
        ] {
            let r = parse_sreg(name, None).unwrap().unwrap();
            assert_eq!(r.name(), name);
        }
    }
}
