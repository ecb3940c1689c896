//! Test tooling that ships with the simulation: random worlds and scripts from seeds (`swarm`,
//! used by the swarm run, the tests and `serve-api --scenario swarm:N`) and the 50,000-Pod
//! pipeline the benches time (`bench`).

pub mod bench;
pub mod swarm;
