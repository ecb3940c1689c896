//! The server judge's parts: the two sides, the scripts, the comparison and the differences
//! the model keeps on purpose.

pub mod compare;
pub mod fields;
pub mod known;
pub mod scripts;
pub mod sides;
