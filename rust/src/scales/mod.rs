//! The scale engine's counting kernels (`irscale.scales`): the image of measures on
//! `REL^N` by meet in the middle, where numpy's sorts and searches were the bottleneck.

pub mod group;
pub mod int_pairs;
pub mod radix;
pub mod residues;
pub mod sweep;
