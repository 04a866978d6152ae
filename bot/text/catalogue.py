"""Every user-facing string, in English and Simplified Chinese, keyed by error or event.

``lang(locale)`` picks the catalogue from a Discord locale ("zh-CN", "zh-TW" → zh; the
rest → en). ``say(locale, key, **params)`` formats one text; ``bot.text.events`` words
engine events with these texts.
"""

from __future__ import annotations

from typing import Any

EN: dict[str, str] = {
    # refusals
    "no_table": "There is no Shengji table in this channel. Start one with `/shengji create`.",
    "table_damaged": "This table could not be restored after a restart ({reason}). The host "
                     "(or a member with Manage Server) can end it with `/shengji end`; its "
                     "match log can then be downloaded with `/shengji export`.",
    "stale_control": "That button or menu no longer works here: use `/shengji status` or "
                     "`/shengji hand` for fresh ones.",
    "bad_options": "Those options do not fit this command: pick them from Discord's list.",
    "table_exists": "This channel already has a table. Join it, or end it first.",
    "bad_rules": "Those rules cannot be played: {reason}",
    "already_seated": "You are already seated (seat {seat}).",
    "table_full": "Every seat is taken.",
    "seat_taken": "Seat {seat} is taken.",
    "not_seated": "You are not seated at this table.",
    "bad_ai_level": "Computer players come in these levels: {levels}.",
    "not_a_bot_seat": "Seat {seat} is not a computer player.",
    "not_host": "Only the table's host or a member with Manage Server can do that.",
    "not_started": "The game has not started yet.",
    "already_started": "The game has already started.",
    "no_such_seat": "There is no seat {seat}: seats are 1 to {seats}.",
    "illegal": "Not allowed: {reason}",
    "engine_not_your_turn": "It is not your turn: seat {turn} plays now.",
    "bad_cards": "I could not read those cards: {reason}",
    "storage": "Sorry, that could not be saved; nothing changed. Please try again.",
    "stale_button": "That button is from an earlier hand.",
    "not_your_turn_to_choose": "That is not yours to choose.",
    "generic": "Something went wrong on my side (error {error_id}). Nothing changed.",
    "generic_stored": "Your move was made and saved, but something went wrong on my side "
                      "while answering (error {error_id}). `/shengji hand` shows where the "
                      "game is.",
    "no_choices": "No legal play matches.",
    # confirmations
    "created": "Table created with the {preset} rules. Others can join with the button or "
               "`/shengji join`.",
    "joined": "You sit in seat {seat}.",
    "left": "You left the table.",
    "ai_added": "A computer player ({level}) sits in seat {seat}.",
    "ai_removed": "Seat {seat} is free again.",
    "started": "The match begins!",
    "ended": "The table is closed.",
    "done": "Done.",
    "trump_dm": "Your hidden declaration: the trump suit is {trump}. (Only you know this.)",
    "trump_dm_fallback": "I could not DM you (your DMs are closed), so here it is privately: "
                         "the trump suit is {trump}.",
    # table message
    "table_title": "Shengji table · {preset}",
    "lobby_line": "Seat {seat}: {name}",
    "empty_seat": "(empty)",
    "status_lobby": "Waiting for players. The host starts the match.",
    "status_deal": "Dealing… {left} cards to go.",
    "status_last_chance": "Last chance to declare.",
    "status_bury": "{name} is burying the kitty.",
    "status_swap": "{name} may swap with the kitty.",
    "status_play": "{name} to play.",
    "status_hand_over": "Hand over. The next hand starts shortly.",
    "status_match_over": "The match is over: team {team} wins!",
    "status_finished": "This table is closed.",
    "trump_unknown": "hidden",
    "no_trump": "no trump",
    "points_line": "Attackers' points: {points}",
    "levels_line": "Levels (seats 1+3 / 2+4): {levels} · trump: {trump}",
    "btn_join": "Join",
    "btn_leave": "Leave",
    "btn_add_ai": "Add computer",
    "btn_start": "Start",
    "btn_hand": "My hand",
    "pick_declaration": "Declare trump with…",
    "pick_play": "Play…",
    "btn_no_swap": "No swap",
    "hint_bury": "Bury {count} cards: `/shengji bury` with the cards or their numbers.",
    "hint_swap": "Swap with the kitty: `/shengji swap`, or press “No swap”.",
    "hint_return": "Give back {count} cards (at least one permanent trump): `/shengji return`.",
    "hand_over_panel": "The hand is over.",
    # events
    "ev_declared": "{name} declared: {text}.",
    "ev_stuck": "{name} stuck (粘) and takes {count} cards from {victim}.",
    "ev_returned": "{name} gave {count} cards back to {victim} (回牌).",
    "ev_deal_ended": "The deal is over: {dealer} deals, {taker} takes the kitty.",
    "ev_trump": "Trump: {trump}, level {level}.",
    "ev_buried": "{name} buried the kitty.",
    "ev_swapped": "{name} swapped {count} card(s) with the kitty.",
    "ev_played": "{name}: {cards}",
    "ev_throw_failed": "{name}'s throw {cards} fails: {forced} is played instead.",
    "ev_trick_won": "{name} wins the trick ({points} points).",
    "ev_trick_won_ruff": "{name} ruffs with trumps and wins the trick ({points} points).",
    "ev_match_over": "Team {team} wins the match!",
    "ev_hand_started": "Hand {number} begins: {dealer} deals, level {level}.",
    "ev_away": "{name} is away: a computer plays for them until they are back "
               "(press “I'm back”, open your hand, or play).",
    "ev_back": "{name} is back.",
    "btn_back": "I'm back",
    "back": "Welcome back: you play your own cards again.",
    "not_away": "You are not marked away: you are playing your own cards.",
    "no_cards": "no cards given",
    "standing_line": "Declared: {text}",
    "panel_expired": "This panel no longer refreshes (Discord lets a bot update it for 15 "
                     "minutes): press “My hand” or use `/shengji hand` for a fresh one.",
    "ev_kitty_taken": "You took the kitty: {cards}",
    "ev_cards_taken": "You took these cards from the declaration you stuck: {cards}",
    "ev_cards_returned": "You received these cards back: {cards}",
    "ev_swap_offered": "Kitty trumps you may swap for side cards of the same rank: {cards}",
    "hand_header": "Your hand ({count} cards){trump}:",
    "your_turn": "It is your turn.",
    # the pictures' words (images.Labels); {n} is a number, filled in by the picture
    "picture_hand": "Hand ({n} cards)",
    "picture_trumps": "Trumps",
    "picture_jokers": "Jokers",
    "picture_red": "red",
    "picture_black": "black",
    "picture_selected": "Selected",
    "picture_new": "New",
    "picture_unplayable": "Can't play now",
    "picture_no_cards": "no cards",
    "picture_trump": "Trump",
    "picture_no_trump": "no trump",
    "picture_hidden_trump": "hidden",
    "picture_level": "Level",
    "picture_dealer": "Dealer",
    "picture_dealer_badge": "D",
    "picture_points": "Attackers' points",
    "picture_cards_left": "{n} cards",
    "picture_to_play": "to play",
    "picture_winning": "winning",
    "picture_away": "away",
    "picture_trick": "Trick",
    "picture_kitty": "Kitty",
    "picture_kitty_points": "{n} points",
    "picture_multiplier": "×{n}",
    "picture_levels": "Levels",
    "picture_next_dealer": "Next dealer",
    "picture_hand_number": "Hand {n}",
    "picture_to_deal": "{n} to deal",
    "picture_declared": "Declared",
    "picture_no_declaration": "No declaration yet",
    "picture_team": "Team",
    "picture_defending": "defending",
    "picture_attacking": "attacking",
    "picture_point_cards": "point cards",
    "picture_last_trick": "Last trick",
    "picture_won_by": "won by",
}

ZH: dict[str, str] = {
    "no_table": "这个频道没有升级牌桌。用 `/shengji create` 开一桌。",
    "table_damaged": "重启后无法恢复这张牌桌（{reason}）。桌主（或有“管理服务器”权限的成员）可以用 "
                     "`/shengji end` 结束它，然后用 `/shengji export` 下载这场比赛的记录。",
    "stale_control": "这个按钮或菜单在这里已经失效：用 `/shengji status` 或 "
                     "`/shengji hand` 获取新的。",
    "bad_options": "这些选项不符合这个命令：请从 Discord 的列表中选择。",
    "table_exists": "这个频道已经有牌桌了。请加入，或先结束它。",
    "bad_rules": "这些规则无法使用：{reason}",
    "already_seated": "你已经坐在 {seat} 号座位。",
    "table_full": "座位已满。",
    "seat_taken": "{seat} 号座位有人了。",
    "not_seated": "你不在这张牌桌上。",
    "bad_ai_level": "电脑玩家的级别：{levels}。",
    "not_a_bot_seat": "{seat} 号座位不是电脑玩家。",
    "not_host": "只有桌主或有“管理服务器”权限的成员可以这样做。",
    "not_started": "牌局还没开始。",
    "already_started": "牌局已经开始了。",
    "no_such_seat": "没有 {seat} 号座位：座位是 1 到 {seats}。",
    "illegal": "不允许：{reason}",
    "engine_not_your_turn": "还没轮到你：现在是 {turn} 号出牌。",
    "bad_cards": "看不懂这些牌：{reason}",
    "storage": "抱歉，保存失败，什么都没有改变。请再试一次。",
    "stale_button": "这个按钮属于之前的一局。",
    "not_your_turn_to_choose": "这不是你的选择。",
    "generic": "出了点问题（错误 {error_id}）。什么都没有改变。",
    "generic_stored": "你的操作已经生效并保存，但回复时出了点问题（错误 {error_id}）。"
                      "用 `/shengji hand` 查看牌局。",
    "no_choices": "没有合法的出牌。",
    "created": "已用 {preset} 规则开桌。其他人可以点按钮或用 `/shengji join` 加入。",
    "joined": "你坐在 {seat} 号座位。",
    "left": "你离开了牌桌。",
    "ai_added": "电脑玩家（{level}）坐在 {seat} 号座位。",
    "ai_removed": "{seat} 号座位空出来了。",
    "started": "比赛开始！",
    "ended": "牌桌已关闭。",
    "done": "好了。",
    "trump_dm": "你的暗亮：主花色是 {trump}。（只有你知道。）",
    "trump_dm_fallback": "无法私信你（你关闭了私信），所以在这里悄悄告诉你：主花色是 {trump}。",
    "table_title": "升级牌桌 · {preset}",
    "lobby_line": "{seat} 号：{name}",
    "empty_seat": "（空）",
    "status_lobby": "等待玩家。桌主开始比赛。",
    "status_deal": "发牌中……还剩 {left} 张。",
    "status_last_chance": "最后的亮主机会。",
    "status_bury": "{name} 正在扣底。",
    "status_swap": "{name} 可以与底牌交换。",
    "status_play": "轮到 {name} 出牌。",
    "status_hand_over": "本局结束，下一局马上开始。",
    "status_match_over": "比赛结束：{team} 队获胜！",
    "status_finished": "牌桌已关闭。",
    "trump_unknown": "未公开",
    "no_trump": "无主",
    "points_line": "抓分方得分：{points}",
    "levels_line": "级别（1+3 号 / 2+4 号）：{levels} · 主：{trump}",
    "btn_join": "加入",
    "btn_leave": "离开",
    "btn_add_ai": "加电脑",
    "btn_start": "开始",
    "btn_hand": "我的牌",
    "pick_declaration": "亮主……",
    "pick_play": "出牌……",
    "btn_no_swap": "不换",
    "hint_bury": "扣 {count} 张底牌：用 `/shengji bury` 写牌或编号。",
    "hint_swap": "与底牌交换：`/shengji swap`，或点“不换”。",
    "hint_return": "回 {count} 张牌（至少一张常主）：`/shengji return`。",
    "hand_over_panel": "本局已结束。",
    "ev_declared": "{name} 亮主：{text}。",
    "ev_stuck": "{name} 粘牌，拿走 {victim} 的 {count} 张牌。",
    "ev_returned": "{name} 回给 {victim} {count} 张牌（回牌）。",
    "ev_deal_ended": "发牌结束：{dealer} 坐庄，{taker} 拿底牌。",
    "ev_trump": "主：{trump}，打 {level}。",
    "ev_buried": "{name} 扣好了底牌。",
    "ev_swapped": "{name} 与底牌交换了 {count} 张。",
    "ev_played": "{name}：{cards}",
    "ev_throw_failed": "{name} 甩牌 {cards} 失败：改出 {forced}。",
    "ev_trick_won": "{name} 赢了这一轮（{points} 分）。",
    "ev_trick_won_ruff": "{name} 毙牌，赢了这一轮（{points} 分）。",
    "ev_match_over": "{team} 队赢得比赛！",
    "ev_hand_started": "第 {number} 局开始：{dealer} 坐庄，打 {level}。",
    "ev_away": "{name} 暂离：由电脑代打，直到回来（点“我回来了”、打开手牌或出牌）。",
    "ev_back": "{name} 回来了。",
    "btn_back": "我回来了",
    "back": "欢迎回来：你又自己出牌了。",
    "not_away": "你没有暂离：正在自己出牌。",
    "no_cards": "没有写牌",
    "standing_line": "亮主：{text}",
    "panel_expired": "这个面板不再刷新（Discord 只允许机器人在 15 分钟内更新它）："
                     "点“我的牌”或用 `/shengji hand` 打开新的面板。",
    "ev_kitty_taken": "你拿到了底牌：{cards}",
    "ev_cards_taken": "你从被粘的亮牌拿到：{cards}",
    "ev_cards_returned": "你收回了这些牌：{cards}",
    "ev_swap_offered": "可用同点数副牌交换的底牌主牌：{cards}",
    "hand_header": "你的手牌（{count} 张）{trump}：",
    "your_turn": "轮到你了。",
    "picture_hand": "手牌（{n} 张）",
    "picture_trumps": "主牌",
    "picture_jokers": "王",
    "picture_red": "红",
    "picture_black": "黑",
    "picture_selected": "已选",
    "picture_new": "新牌",
    "picture_unplayable": "现在不能出",
    "picture_no_cards": "没有牌",
    "picture_trump": "主",
    "picture_no_trump": "无主",
    "picture_hidden_trump": "未公开",
    "picture_level": "级别",
    "picture_dealer": "庄家",
    "picture_dealer_badge": "庄",
    "picture_points": "抓分方得分",
    "picture_cards_left": "{n} 张",
    "picture_to_play": "该出牌",
    "picture_winning": "目前最大",
    "picture_away": "暂离",
    "picture_trick": "本轮",
    "picture_kitty": "底牌",
    "picture_kitty_points": "{n} 分",
    "picture_multiplier": "×{n}",
    "picture_levels": "级别",
    "picture_next_dealer": "下一局庄家",
    "picture_hand_number": "第 {n} 局",
    "picture_to_deal": "还剩 {n} 张",
    "picture_declared": "亮主",
    "picture_no_declaration": "还没有人亮主",
    "picture_team": "队",
    "picture_defending": "坐庄",
    "picture_attacking": "抓分",
    "picture_point_cards": "分牌",
    "picture_last_trick": "上一轮",
    "picture_won_by": "赢家",
}

#: Chinese reasons for the engine's most common refusals (others keep its English text).
ENGINE_ZH: dict[str, str] = {
    "not_your_turn": "还没轮到你。",
    "must_follow_suit": "必须先跟首家出的花色。",
    "must_follow_pair": "你有这门的对子，必须跟对。",
    "must_follow_triple": "你有这门的三张，必须跟三张。",
    "must_follow_tractor": "你有这门的拖拉机，必须跟拖拉机。",
    "wrong_count": "出牌张数必须和首家一样。",
    "not_in_hand": "你手里没有这些牌。",
    "mixed_lead": "首家出牌必须是同一门（全是主或同一花色副牌）。",
    "too_weak": "只有更强的亮主才能反。",
    "wrong_phase": "现在不能这样做。",
    "not_a_pattern": "这不是合法的牌型（单张、对子、刮风、下雨、飘雪花、打雷、闪电）。",
    "must_follow_pattern": "你有同样的牌型，必须出。",
    "must_follow_from_top": "必须从大到小跟牌。",
    "must_follow_pairs_then_top": "有对跟对，其余从大到小跟。",
    "bad_declaration": "这样不能亮主。",
    "bury_count": "扣底张数不对。",
}


def lang(locale: str | None) -> dict[str, str]:
    return ZH if (locale or "").lower().startswith("zh") else EN


def template(locale: str | None, key: str) -> str:
    """A text as written, unformatted (English where the language lacks it)."""
    return lang(locale).get(key) or EN.get(key) or key


def say(locale: str | None, key: str, **params: Any) -> str:
    text = template(locale, key)
    try:
        return text.format(**params)
    except (KeyError, IndexError):
        return text


def engine_reason(locale: str | None, code: str | None, message: str,
                  params: dict[str, Any] | None = None) -> str:
    """The engine's reason in the player's language; seats are shown from 1."""
    shown = {k: v + 1 if k in ("turn", "seat") and isinstance(v, int) else v
             for k, v in (params or {}).items()}
    template = lang(locale).get(f"engine_{code}") or EN.get(f"engine_{code}")
    if template is not None:
        try:
            return template.format(**shown)
        except (KeyError, IndexError):
            pass  # the engine gave fewer details than this sentence names: its own words
    if lang(locale) is ZH and code in ENGINE_ZH:
        return ENGINE_ZH[code]
    return message


# -- stats (issue 7): leaderboards, stats, history, export, server settings --------------------

EN.update({
    "need_manage_server": "Only members with Manage Server can change the server settings.",
    "no_match": "There is no match #{match} on this server.",
    "match_in_play": "Match #{match} is still being played; it can be exported when it ends.",
    "lb_bad_order": "Leaderboards are ordered by one of: {orders}.",
    "lb_other_server": "That leaderboard belongs to another server.",
    "lb_title_rating": "Leaderboard · rating",
    "lb_title_wins": "Leaderboard · matches won",
    "lb_title_levels": "Leaderboard · levels gained",
    "lb_empty": "No ranked games have been played on this server yet.",
    "lb_footer": "Page {page} of {pages} · {total} players · ranked play only",
    "lb_line_rating": "**{pos}.** {name} — {rating} ({hands} hands)",
    "lb_line_wins": "**{pos}.** {name} — {won} won of {played}",
    "lb_line_levels": "**{pos}.** {name} — {levels} levels",
    "btn_prev": "◀ Previous",
    "btn_next": "Next ▶",
    "btn_lb_rating": "By rating",
    "btn_lb_wins": "By wins",
    "btn_lb_levels": "By levels",
    "stats_title": "{name} on this server",
    "stats_none": "{name} has not played on this server yet.",
    "stats_matches": "Matches: {played} played, {won} won, {abandoned} abandoned "
                     "(ranked: {ranked_played} played, {ranked_won} won)",
    "stats_defending": "Hands as dealer's team: {hands}, won {won}",
    "stats_attacking": "Hands as attackers: {hands}, won {won}",
    "stats_levels": "Levels gained: {levels}",
    "stats_kitties": "Kitties captured: {kitties}",
    "stats_rating": "Rating: {rating} (#{position} on this server; μ {mu}, σ {sigma}, "
                    "{hands} ranked hands)",
    "stats_unrated": "Rating: none yet (no ranked hand played).",
    "history_empty": "{name} has no finished matches on this server.",
    "history_title": "Recent matches of {name}:",
    "history_line": "#{id} · {date} · with {partners} vs {opponents} · {result} · "
                    "{hands} hand(s){levels}{ranked}",
    "history_won": "won",
    "history_lost": "lost",
    "history_abandoned": "abandoned",
    "history_ranked": " · ranked",
    "export_ready": "Match #{match}: the seed, the rules and every action "
                    "(format: docs/match-export.md).",
    "settings_show": "Server settings for new tables:\npreset: {preset}\noptions: {options}\n"
                     "turn timer: {timer} s\ncomputer players at ranked tables: {ranked}",
    "yes": "yes",
    "no": "no",
})

ZH.update({
    "need_manage_server": "只有有“管理服务器”权限的成员可以修改服务器设置。",
    "no_match": "这个服务器没有第 {match} 场比赛。",
    "match_in_play": "第 {match} 场比赛还在进行中，结束后才能导出。",
    "lb_bad_order": "排行榜的排序方式：{orders}。",
    "lb_other_server": "这个排行榜属于另一个服务器。",
    "lb_title_rating": "排行榜 · 等级分",
    "lb_title_wins": "排行榜 · 胜场",
    "lb_title_levels": "排行榜 · 升级数",
    "lb_empty": "这个服务器还没有排位牌局。",
    "lb_footer": "第 {page}/{pages} 页 · {total} 名玩家 · 只计排位",
    "lb_line_rating": "**{pos}.** {name} — {rating}（{hands} 局）",
    "lb_line_wins": "**{pos}.** {name} — {played} 场赢 {won} 场",
    "lb_line_levels": "**{pos}.** {name} — 升 {levels} 级",
    "btn_prev": "◀ 上一页",
    "btn_next": "下一页 ▶",
    "btn_lb_rating": "按等级分",
    "btn_lb_wins": "按胜场",
    "btn_lb_levels": "按升级数",
    "stats_title": "{name} 在本服务器",
    "stats_none": "{name} 还没有在本服务器玩过。",
    "stats_matches": "比赛：{played} 场，赢 {won} 场，放弃 {abandoned} 场"
                     "（排位：{ranked_played} 场，赢 {ranked_won} 场）",
    "stats_defending": "坐庄方局数：{hands}，赢 {won}",
    "stats_attacking": "抓分方局数：{hands}，赢 {won}",
    "stats_levels": "升级数：{levels}",
    "stats_kitties": "抠底次数：{kitties}",
    "stats_rating": "等级分：{rating}（本服务器第 {position} 名；μ {mu}，σ {sigma}，"
                    "{hands} 局排位）",
    "stats_unrated": "等级分：暂无（还没有排位局）。",
    "history_empty": "{name} 在本服务器没有结束的比赛。",
    "history_title": "{name} 最近的比赛：",
    "history_line": "#{id} · {date} · 搭档 {partners} 对 {opponents} · {result} · "
                    "{hands} 局{levels}{ranked}",
    "history_won": "胜",
    "history_lost": "负",
    "history_abandoned": "放弃",
    "history_ranked": " · 排位",
    "export_ready": "第 {match} 场比赛：种子、规则和每一步动作（格式见 docs/match-export.md）。",
    "settings_show": "本服务器新牌桌的设置：\n规则：{preset}\n选项：{options}\n"
                     "出牌时限：{timer} 秒\n电脑玩家可以坐排位桌：{ranked}",
    "yes": "是",
    "no": "否",
})
