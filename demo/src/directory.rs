//! The venue directory tables: pools, tags, attribute types, then every
//! member with its rooms, capacities, tags, attributes and knowledge.

use std::collections::HashSet;

use super::model::{AttributeType, Capacity, Dataset, MemberAttribute, MemberTag, Pool, Room, Tag};
use super::pools::POOLS;
use super::tags::{ATTRIBUTE_TYPES, TAGS};
use super::venues;

pub fn fill(data: &mut Dataset, seed: u64, members: usize) {
    data.pools = POOLS
        .iter()
        .enumerate()
        .map(|(i, p)| Pool {
            id: i as i64 + 1,
            slug: p.slug,
            name: p.name,
            description: p.description,
        })
        .collect();
    data.tags = TAGS
        .iter()
        .enumerate()
        .map(|(i, name)| Tag {
            id: i as i64 + 1,
            name,
        })
        .collect();
    data.attribute_types = ATTRIBUTE_TYPES
        .iter()
        .enumerate()
        .map(|(i, (key, label, value_type))| AttributeType {
            id: i as i64 + 1,
            key,
            label,
            value_type,
        })
        .collect();

    // Only ever queried for membership, so its iteration order never matters.
    let mut taken: HashSet<String> = HashSet::with_capacity(members);
    data.members.reserve(members);
    data.rooms.reserve(members * 4);
    data.capacities.reserve(members * 14);
    for id in 1..=members as i64 {
        let venue = venues::venue(seed, id, &mut taken);
        for (position, planned) in venue.rooms.into_iter().enumerate() {
            let room_id = data.rooms.len() as i64 + 1;
            for (configuration, max_capacity) in planned.capacities {
                data.capacities.push(Capacity {
                    room_id,
                    member_id: id,
                    configuration,
                    max_capacity,
                });
            }
            data.rooms.push(Room {
                id: room_id,
                member_id: id,
                name: planned.name,
                description: planned.description,
                area_m2: planned.area_m2,
                position: position as i32,
            });
        }
        data.member_tags
            .extend(venue.tag_ids.into_iter().map(|tag_id| MemberTag {
                member_id: id,
                tag_id,
            }));
        data.member_attributes
            .extend(
                venue
                    .attributes
                    .into_iter()
                    .map(|(attribute_type_id, value)| MemberAttribute {
                        member_id: id,
                        attribute_type_id,
                        value,
                    }),
            );
        for mut entry in venue.knowledge {
            entry.id = data.knowledge.len() as i64 + 1;
            data.knowledge.push(entry);
        }
        data.members.push(venue.member);
    }
}
