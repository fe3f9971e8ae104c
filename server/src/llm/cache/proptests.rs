//! Whatever the conversation: at most four breakpoints, only at the places
//! the module doc names, each over a prefix long enough to be cached.
use super::*;
use crate::llm::chat::ChatRole;
use crate::llm::Task;
use proptest::prelude::*;

fn block() -> impl Strategy<Value = Block> {
    prop_oneof![
        "[a-zé ]{0,400}".prop_map(|text| Block::Text { text }),
        ("[a-z0-9]{1,8}", "[a-z_]{1,12}").prop_map(|(id, name)| Block::ToolUse {
            id,
            name,
            input: serde_json::json!({"q": "x"}),
        }),
        ("[a-z0-9]{1,8}", "[a-z ]{0,3000}", any::<bool>()).prop_map(
            |(tool_use_id, content, is_error)| Block::ToolResult {
                tool_use_id,
                content,
                is_error,
            }
        ),
    ]
}

fn message() -> impl Strategy<Value = ChatMessage> {
    (any::<bool>(), prop::collection::vec(block(), 0..4)).prop_map(|(user, content)| ChatMessage {
        role: if user {
            ChatRole::User
        } else {
            ChatRole::Assistant
        },
        content,
    })
}

fn request() -> impl Strategy<Value = ChatRequest> {
    ("[a-z ]{0,6000}", prop::collection::vec(message(), 0..12)).prop_map(|(system, messages)| {
        ChatRequest {
            task: Task::Chat,
            system,
            tools: Vec::new().into(),
            messages,
            max_tokens: 100,
            time_limit: None,
        }
    })
}

/// The prefix, in estimated tokens, through block `at` (inclusive).
fn prefix_tokens(request: &ChatRequest, at: BlockRef) -> u64 {
    let mut total = chars(&request.system);
    for (m, message) in request.messages.iter().enumerate() {
        for (b, block) in message.content.iter().enumerate() {
            if (m, b) > (at.message, at.block) {
                return tokens(total);
            }
            total += block_chars(block);
        }
    }
    tokens(total)
}

proptest! {
    #[test]
    fn breakpoints_are_few_placed_as_specified_and_worth_caching(
        request in request(),
        minimum in prop_oneof![Just(0u32), Just(1024), Just(2048)],
    ) {
        let plan = plan(&request, minimum);
        prop_assert!(plan.count() <= MAX_BREAKPOINTS);
        prop_assert!(!plan.system || !request.system.is_empty());
        if plan.system {
            prop_assert!(tokens(chars(&request.system)) >= u64::from(minimum));
        }
        let n = request.messages.len();
        let mut previous = None;
        for &at in &plan.messages {
            prop_assert!(previous < Some(at), "in prompt order");
            previous = Some(at);
            let message = &request.messages[at.message];
            let newest = at.message + 1 == n;
            prop_assert!(
                at.message + 2 == n
                    || (newest && message.content.iter().any(|b| matches!(b, Block::ToolResult { .. }))),
                "only before the newest message, or on a newest one with tool results"
            );
            prop_assert!(!is_empty_text(&message.content[at.block]));
            prop_assert_eq!(Some(at.block), last_marked_block(message), "on the last non-empty block");
            prop_assert!(prefix_tokens(&request, at) >= u64::from(minimum));
        }
        // With no minimum, every place that can carry one does.
        let free = super::plan(&request, 0);
        prop_assert_eq!(free.system, !request.system.is_empty());
        let expected = (n >= 2 && last_marked_block(&request.messages[n - 2]).is_some()) as usize
            + (n >= 1
                && carries_tool_results(&request.messages[n - 1])
                && last_marked_block(&request.messages[n - 1]).is_some()) as usize;
        prop_assert_eq!(free.messages.len(), expected);
        // A lower minimum never removes a breakpoint.
        prop_assert!(plan.messages.iter().all(|at| free.messages.contains(at)));
    }
}
