//! Look-ups over the generated directory that requests and catalogues need:
//! active venues per pool, and the hard filter of seed 001 (pool, area,
//! configuration × capacity) with the matched room to pin.

use super::geography::distance_km;
use super::model::{Area, Configuration, Dataset};

pub struct Index {
    /// Member positions (into `Dataset::members`) of active venues, per pool.
    active_by_pool: Vec<Vec<usize>>,
    /// Per member position, its slice of `Dataset::capacities`.
    capacity_ranges: Vec<(usize, usize)>,
    /// Per member position, the largest capacity per configuration (`Configuration::ALL` order).
    max_by_config: Vec<[i32; 7]>,
    /// Per member position, its tag ids (sorted).
    tags: Vec<Vec<i64>>,
}

/// A venue passing the hard filter, with the room to pin.
#[derive(Clone, Copy, Debug)]
pub struct Match {
    pub member: usize,
    pub room_id: i64,
    pub config: Configuration,
    pub capacity: i32,
    pub distance_km: f64,
}

impl Index {
    pub fn new(data: &Dataset) -> Index {
        let mut active_by_pool = vec![Vec::new(); data.pools.len()];
        for (position, member) in data.members.iter().enumerate() {
            if member.status == "active" {
                if let Some(list) = usize::try_from(member.pool_id - 1)
                    .ok()
                    .and_then(|p| active_by_pool.get_mut(p))
                {
                    list.push(position);
                }
            }
        }
        // Capacities are generated member by member, so each member's rows are contiguous.
        let mut capacity_ranges = vec![(0, 0); data.members.len()];
        let mut max_by_config = vec![[0; 7]; data.members.len()];
        let mut start = 0;
        while start < data.capacities.len() {
            let member_id = data.capacities[start].member_id;
            let mut end = start;
            while end < data.capacities.len() && data.capacities[end].member_id == member_id {
                end += 1;
            }
            if let Ok(position) = usize::try_from(member_id - 1) {
                capacity_ranges[position] = (start, end);
                for capacity in &data.capacities[start..end] {
                    let slot = &mut max_by_config[position][capacity.configuration as usize];
                    *slot = (*slot).max(capacity.max_capacity);
                }
            }
            start = end;
        }
        let mut tags = vec![Vec::new(); data.members.len()];
        for link in &data.member_tags {
            if let Some(list) = usize::try_from(link.member_id - 1)
                .ok()
                .and_then(|p| tags.get_mut(p))
            {
                list.push(link.tag_id);
            }
        }
        Index {
            active_by_pool,
            capacity_ranges,
            max_by_config,
            tags,
        }
    }

    pub fn tags_of(&self, member: usize) -> &[i64] {
        self.tags.get(member).map_or(&[], Vec::as_slice)
    }

    pub fn active_in_pool(&self, pool: usize) -> &[usize] {
        self.active_by_pool.get(pool).map_or(&[], Vec::as_slice)
    }

    pub fn all_active(&self) -> impl Iterator<Item = usize> + '_ {
        self.active_by_pool.iter().flatten().copied()
    }

    pub fn max_capacity(&self, member: usize, config: Configuration) -> i32 {
        self.max_by_config[member][config as usize]
    }

    /// The venue's tightest room fitting `participants` in one of `configs`
    /// and inside `area` (measured from `centre`), or None.
    pub fn matches(
        &self,
        data: &Dataset,
        member: usize,
        configs: &[Configuration],
        participants: i32,
        area: &Area,
        centre: (f64, f64),
    ) -> Option<Match> {
        if !configs
            .iter()
            .any(|c| self.max_capacity(member, *c) >= participants)
        {
            return None;
        }
        let m = &data.members[member];
        let distance = distance_km((m.lat, m.lng), centre);
        let inside = match area {
            Area::PostalCodes(codes) => codes.contains(&m.postal_code),
            // A small margin keeps picks inside even with PostgreSQL's float rounding.
            Area::Radius { km, .. } => distance <= km * 0.98,
        };
        if !inside {
            return None;
        }
        let (start, end) = self.capacity_ranges[member];
        data.capacities[start..end]
            .iter()
            .filter(|c| configs.contains(&c.configuration) && c.max_capacity >= participants)
            .min_by_key(|c| (c.max_capacity, c.room_id, c.configuration))
            .map(|c| Match {
                member,
                room_id: c.room_id,
                config: c.configuration,
                capacity: c.max_capacity,
                distance_km: distance,
            })
    }

    /// Every active venue of `pool` passing the hard filter, by member id.
    pub fn candidates(
        &self,
        data: &Dataset,
        pool: usize,
        configs: &[Configuration],
        participants: i32,
        area: &Area,
        centre: (f64, f64),
    ) -> Vec<Match> {
        self.active_in_pool(pool)
            .iter()
            .filter_map(|&m| self.matches(data, m, configs, participants, area, centre))
            .collect()
    }
}
