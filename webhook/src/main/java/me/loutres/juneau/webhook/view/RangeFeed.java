package me.loutres.juneau.webhook.view;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.List;
import java.util.function.Function;
import me.loutres.juneau.view.RangeIndex;
import me.loutres.juneau.view.ViewKeys;

/** Keeps a {@link RangeIndex} equal to an informer's cache: each object version replaces the ranges of the last. */
final class RangeFeed<T extends HasMetadata, V> implements ResourceEventHandler<T> {
    private final RangeIndex<V> index;
    private final String prefix;
    private final Function<T, List<RangeIndex.Hit<V>>> ranges;

    private RangeFeed(RangeIndex<V> index, String prefix, Function<T, List<RangeIndex.Hit<V>>> ranges) {
        this.index = index;
        this.prefix = prefix;
        this.ranges = ranges;
    }

    static <T extends HasMetadata, V> RangeFeed<T, V> of(RangeIndex<V> index, Function<T, List<RangeIndex.Hit<V>>> ranges) {
        return new RangeFeed<>(index, "", ranges);
    }

    /** Several kinds feeding one index keep their owners apart with a prefix. */
    static <T extends HasMetadata, V> RangeFeed<T, V> of(RangeIndex<V> index, String prefix,
            Function<T, List<RangeIndex.Hit<V>>> ranges) {
        return new RangeFeed<>(index, prefix, ranges);
    }

    @Override
    public void onAdd(T obj) {
        index.replace(prefix + ViewKeys.key(obj), ranges.apply(obj));
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
        onAdd(newObj);
    }

    @Override
    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        index.remove(prefix + ViewKeys.key(obj));
    }
}
