/**
 * A queue's schedule as values: the cron expression's ticks ({@link dev.reliableredis.queue.schedule.ScheduleTicks}),
 * the state Redis keeps of a schedule and the outcome of firing its ticks. It uses only {@code internal}; the
 * queues fire schedules through the API's {@code QueueSchedules}.
 */
package dev.reliableredis.queue.schedule;
